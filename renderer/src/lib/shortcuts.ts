// The app's keyboard shortcuts, from one table: the menu's accelerators (shared/menu-commands.ts) — in the browser host
// the page takes the ones a browser lets it have — plus the page's own keys ("/" finds a run, "?" lists the keys, the
// arrows in the step timeline). The sidebar's hints and the "?" sheet are read from here, never written again. Run
// actions (Retry, Resume, Stop) never get a key: a stray key must not start or stop a run.
import { MENU_COMMANDS, MENU_COMMAND_SPECS, type MenuCommand } from '../../../shared/menu-commands';

export type ShortcutTarget = MenuCommand | 'filter' | 'help';
type Host = 'electron' | 'headless';

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A key combination: `mod` is Cmd on macOS, Ctrl elsewhere. */
interface Chord {
  key: string;
  mod: boolean;
  shift: boolean;
  alt: boolean;
}

/** An Electron accelerator ("CmdOrCtrl+Shift+D") as a chord. */
function parseAccelerator(acc: string): Chord {
  const parts = acc.split('+');
  const key = (parts.pop() ?? '').toLowerCase();
  return { key, mod: parts.includes('CmdOrCtrl'), shift: parts.includes('Shift'), alt: parts.includes('Alt') };
}

/**
 * The chord that gives a menu command in this host, or null. The desktop app's menu owns its accelerators; a browser
 * keeps Ctrl/Cmd+N for a new window, so the browser host's New task is Alt+N.
 */
function menuChord(command: MenuCommand, host: Host): Chord | null {
  const acc = MENU_COMMAND_SPECS[command].accelerator;
  if (!acc) return null;
  const chord = parseAccelerator(acc);
  if (host === 'headless' && chord.mod && !chord.shift && chord.key === 'n') return { key: 'n', mod: false, shift: false, alt: true };
  return chord;
}

/** What a key press asks for, or null. `inField`: the focus is in a text field (typing, not commanding). */
export function shortcutFor(e: KeyLike, opts: { host: Host; mac: boolean; inField: boolean }): ShortcutTarget | null {
  const mod = opts.mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const bare = !e.ctrlKey && !e.metaKey && !e.altKey;
  if (bare && !opts.inField && e.key === '/') return 'filter';
  if (bare && !opts.inField && e.key === '?') return 'help';
  // The desktop app's menu gives its own accelerators to the window (app.onCommand).
  if (opts.host !== 'headless') return null;
  const k = e.key.toLowerCase();
  for (const command of MENU_COMMANDS) {
    const c = menuChord(command, opts.host);
    if (c && c.key === k && c.mod === mod && c.shift === e.shiftKey && c.alt === e.altKey) return command;
  }
  return null;
}

/** A chord as the app shows it: "Ctrl+Shift+D", "⌘⇧D" on macOS. */
function chordLabel(c: Chord, mac: boolean): string {
  const key = c.key.length === 1 ? c.key.toUpperCase() : c.key;
  if (mac) return `${c.mod ? '⌘' : ''}${c.alt ? '⌥' : ''}${c.shift ? '⇧' : ''}${key}`;
  return [c.mod && 'Ctrl', c.alt && 'Alt', c.shift && 'Shift', key].filter(Boolean).join('+');
}

/** The shortcut for a target as the sidebar and the sheet show it, or null when it has none in this host. */
export function shortcutHint(target: ShortcutTarget, host: Host, mac: boolean): string | null {
  if (target === 'filter') return '/';
  if (target === 'help') return '?';
  const c = menuChord(target, host);
  return c ? chordLabel(c, mac) : null;
}

export interface ShortcutRow {
  keys: string;
  does: string;
}

/** Every key the app answers to, in this host: the "?" sheet's rows. */
export function shortcutRows(host: Host, mac: boolean): ShortcutRow[] {
  const rows: ShortcutRow[] = [];
  for (const command of MENU_COMMANDS) {
    const keys = shortcutHint(command, host, mac);
    if (keys) rows.push({ keys, does: MENU_COMMAND_SPECS[command].label.replace(/…$/, '') });
  }
  rows.push({ keys: '/', does: 'Find a run (the Runs list’s search)' });
  rows.push({ keys: '↑ ↓ Home End', does: 'Move through a run’s steps (in the step list)' });
  rows.push({ keys: 'Esc', does: 'Close the dialog' });
  rows.push({ keys: '?', does: 'Show these keys' });
  return rows;
}

/** Whether the key press happened while typing in a field. */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}
