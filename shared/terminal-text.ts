// Text Ratchet did not write (the model's words, tool input, gate output, a repository's names) made safe to print on a terminal.

// C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F: a terminal may take U+009B for CSI).
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Replaces every control character except newline and tab with a visible sign, so nothing printed can act on the
 * terminal: no escape sequence (ESC: colours, cursor movement, erase line, OSC window titles, OSC 52 clipboard writes),
 * no bell, no carriage return overwriting a line, no C1 CSI. C0 characters become their Unicode control picture
 * (ESC reads `␛`, BEL `␇`, CR `␍`), DEL `␡`, C1 `�`. A CRLF line end is read as a newline.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? '\u2421' : '\ufffd';
  });
}

// Escape sequences taken whole, so no stray `]0;title` or `[31m` is left behind: CSI (ESC [ or C1 CSI, parameters,
// final byte), OSC (ESC ] or C1 OSC, up to BEL or ST), and any other ESC with the one character after it. Each piece
// is bounded by a character class, so matching is linear in the text's length.
const ESCAPES =
  // eslint-disable-next-line no-control-regex -- the control characters are what this matches
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g;
// Every control character but newline: C0 (tab included), DEL and C1.
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text Ratchet writes somewhere lasting (a commit message, a reflog line) with no control character at all but
 * newlines: escape sequences removed whole, CRLF read as a newline, a tab as a space, every other control removed.
 * Unlike terminalSafe, nothing visible is put in their place: this text is stored, not shown as received.
 */
export function plainText(text: string): string {
  return text
    .replace(ESCAPES, '')
    .replace(/\r\n/g, '\n')
    .replace(CONTROL_BUT_NEWLINE, (c) => (c === '\t' ? ' ' : ''));
}

/**
 * One line of plain text (a step title, a commit subject): plainText with newlines as spaces, runs of spaces as one,
 * trimmed. Whatever its source (a workflow file, a drafted plan, the app, the CLI), a step title goes through this.
 */
export function plainLine(text: string): string {
  return plainText(text).replace(/\s+/g, ' ').trim();
}

const ESC = 0x1b;
// eslint-disable-next-line no-control-regex -- a run of text without control characters (tab is text here)
const PLAIN_RUN = /[^\u0000-\u0008\u000a-\u001f\u007f-\u009f]*/y;

/**
 * One screen line being written. Plain text is appended as a string; the first write behind its end (a carriage-return
 * redraw, a cursor move) turns it into characters by column, so a redraw over a long line costs what it writes.
 */
class Row {
  private text = '';
  private chars: string[] | null = null;

  get length(): number {
    return this.chars ? this.chars.length : this.text.length;
  }

  write(col: number, chunk: string): void {
    if (!this.chars && col === this.text.length) {
      this.text += chunk;
      return;
    }
    if (!this.chars && col > this.text.length) {
      this.text += ' '.repeat(col - this.text.length) + chunk;
      return;
    }
    this.chars ??= this.text.split('');
    const chars = this.chars;
    while (chars.length < col) chars.push(' ');
    for (let k = 0; k < chunk.length; k++) chars[col + k] = chunk[k]!;
  }

  erase(from: number, to: number): void {
    if (from >= this.length) return;
    if (to >= this.length) {
      if (this.chars) this.chars.length = from;
      else this.text = this.text.slice(0, from);
      return;
    }
    this.chars ??= this.text.split('');
    for (let c = from; c < to; c++) this.chars[c] = ' ';
  }

  toString(): string {
    return this.chars ? this.chars.join('') : this.text;
  }
}

// How far a cursor-up may reach back: a live reporter redraws its last few lines, never the whole log, and the bound
// keeps a stream of ESC[999A from costing more than the lines it rewrites.
const MAX_REDRAW_LINES = 200;

/**
 * A terminal's output as the text a person saw, for a prompt, a parser or the classifier: colours and other SGR
 * attributes removed, OSC sequences (titles, hyperlinks) removed, carriage-return redraws (progress bars, spinners)
 * and cursor movement within the last lines (erase line, cursor up, column moves: log-update, vitest, pnpm) resolved,
 * backspaces applied, and other control characters but tab dropped. CRLF is a newline. Linear in the input.
 */
export function terminalText(raw: string): string {
  // eslint-disable-next-line no-control-regex -- most output has no control character but newline and tab
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(raw)) return raw;
  const done: string[] = [];
  // The lines a cursor-up can still reach, oldest first; the last is the one being written.
  let screen: Row[] = [new Row()];
  let row = 0;
  let col = 0;
  const flushOld = (): void => {
    if (screen.length > MAX_REDRAW_LINES * 2) {
      const drop = screen.length - MAX_REDRAW_LINES;
      for (let k = 0; k < drop; k++) done.push(screen[k]!.toString());
      screen = screen.slice(drop);
      row -= drop;
    }
  };
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x0a) {
      row++;
      col = 0;
      if (row === screen.length) screen.push(new Row());
      flushOld();
      continue;
    }
    if (code === 0x0d) {
      if (raw.charCodeAt(i + 1) !== 0x0a) col = 0;
      continue;
    }
    if (code === 0x08) {
      if (col > 0) col--;
      continue;
    }
    if (code === ESC || code === 0x9b) {
      const csi = code === 0x9b ? i + 1 : raw[i + 1] === '[' ? i + 2 : -1;
      if (csi >= 0) {
        // CSI: parameter bytes, intermediate bytes, one final byte.
        let j = csi;
        while (j < n && raw.charCodeAt(j) >= 0x30 && raw.charCodeAt(j) <= 0x3f) j++;
        const params = raw.slice(csi, j);
        while (j < n && raw.charCodeAt(j) >= 0x20 && raw.charCodeAt(j) <= 0x2f) j++;
        const final = raw[j] ?? '';
        const num = Number.parseInt(params, 10);
        const count = Number.isNaN(num) || num < 1 ? 1 : num;
        const line = screen[row]!;
        if (final === 'K') {
          const mode = Number.isNaN(num) ? 0 : num;
          if (mode === 0) line.erase(col, Infinity);
          else if (mode === 1) line.erase(0, col + 1);
          else line.erase(0, Infinity);
        } else if (final === 'G') col = count - 1;
        else if (final === 'C') col += count;
        else if (final === 'D') col = Math.max(0, col - count);
        else if (final === 'A' || final === 'F') {
          row = Math.max(0, row - count);
          if (final === 'F') col = 0;
        } else if (final === 'B' || final === 'E') {
          row += count;
          while (screen.length <= row) screen.push(new Row());
          if (final === 'E') col = 0;
        } else if (final === 'J') {
          const mode = Number.isNaN(num) ? 0 : num;
          if (mode === 0) {
            line.erase(col, Infinity);
            screen.length = row + 1;
          }
        }
        i = j;
        continue;
      }
      if (raw[i + 1] === ']') {
        // OSC: up to BEL or ESC \ (or the end of the line, for a broken one).
        let j = i + 2;
        while (j < n && raw.charCodeAt(j) !== 0x07 && raw.charCodeAt(j) !== 0x0a && !(raw.charCodeAt(j) === ESC && raw[j + 1] === '\\')) j++;
        i = raw.charCodeAt(j) === ESC ? j + 1 : raw.charCodeAt(j) === 0x0a ? j - 1 : j;
        continue;
      }
      // Any other escape: ESC and the one character after it (ESC 7, ESC (B …).
      if (i + 1 < n && raw.charCodeAt(i + 1) !== 0x0a) i++;
      continue;
    }
    if (code !== 0x09 && (code < 0x20 || (code >= 0x7f && code <= 0x9f))) continue;
    // Printable text (tabs kept) up to the next control character, written in one piece.
    PLAIN_RUN.lastIndex = i;
    PLAIN_RUN.test(raw);
    const end = PLAIN_RUN.lastIndex;
    screen[row]!.write(col, raw.slice(i, end));
    col += end - i;
    i = end - 1;
  }
  for (const r of screen) done.push(r.toString());
  return done.join('\n');
}
