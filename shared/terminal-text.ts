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
