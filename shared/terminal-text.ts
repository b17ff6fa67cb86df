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
