// Splits gate output into lines and turns one line's ANSI escapes into styled spans (parsed lazily, only for visible lines).
import Anser from 'anser';

export interface AnsiSpan {
  text: string;
  /** Either a class of the terminal palette (ansi-red, ansi-bright-green...), themable in CSS, or null. */
  fgClass: string | null;
  bgClass: string | null;
  /** Exact colours (256-colour palette, true colour) as CSS. */
  fg: string | null;
  bg: string | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

// Line helpers live in shared/ (the engine pages gate logs by the same lines); re-exported for the renderer's callers.
export { lineAt, lineIndex } from '../../../shared/line-index';

const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The xterm 256-colour palette: 16 named colours (as classes), a 6x6x6 cube, then 24 greys. */
function palette(n: number): { cls: string | null; css: string | null } {
  if (n < 8) return { cls: `ansi-${BASIC[n]}`, css: null };
  if (n < 16) return { cls: `ansi-bright-${BASIC[n - 8]}`, css: null };
  if (n < 232) {
    const k = n - 16;
    const c = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return { cls: null, css: `rgb(${c(Math.floor(k / 36))}, ${c(Math.floor(k / 6) % 6)}, ${c(k % 6)})` };
  }
  const g = 8 + (n - 232) * 10;
  return { cls: null, css: `rgb(${g}, ${g}, ${g})` };
}

function colour(name: string | null, truecolor: string | null): { cls: string | null; css: string | null } {
  if (!name) return { cls: null, css: null };
  // Anser keeps the last true colour on later entries, so it counts only when the entry itself says true colour.
  if (name === 'ansi-truecolor') return { cls: null, css: truecolor ? `rgb(${truecolor})` : null };
  const pal = /^ansi-palette-(\d+)$/.exec(name);
  if (pal) return palette(Number(pal[1]));
  return { cls: name, css: null };
}

const PLAIN = { fgClass: null, bgClass: null, fg: null, bg: null, bold: false, dim: false, italic: false, underline: false };

export function ansiSpans(line: string): AnsiSpan[] {
  // Most lines carry no escape at all: skip the parser for them.
  if (!line.includes('\u001b')) return [{ text: line, ...PLAIN }];
  return Anser.ansiToJson(line, { json: true, use_classes: true, remove_empty: true }).map((e) => {
    const fg = colour(e.fg, e.fg_truecolor);
    const bg = colour(e.bg, e.bg_truecolor);
    return {
      text: e.content,
      fgClass: fg.cls,
      bgClass: bg.cls ? `${bg.cls}-bg` : null,
      fg: fg.css,
      bg: bg.css,
      bold: e.decorations.includes('bold'),
      dim: e.decorations.includes('dim'),
      italic: e.decorations.includes('italic'),
      underline: e.decorations.includes('underline'),
    };
  });
}

export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}
