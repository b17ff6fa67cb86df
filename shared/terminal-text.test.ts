import { describe, expect, it } from 'vitest';
import { plainLine, plainText, terminalSafe, terminalText } from './terminal-text';

describe('terminalSafe', () => {
  it('replaces ESC, BEL, OSC 52, cursor movement, CR, DEL and C1 controls with visible signs, keeping newlines and tabs', () => {
    const s = terminalSafe('a\u001b]52;c;ZXZpbA==\u0007b\u001b[1A\u001b[2Kc\rd\u009b2J\u007fe\tf\ng\r\nh');
    expect(s).toBe('a␛]52;c;ZXZpbA==␇b␛[1A␛[2Kc␍d\ufffd2J␡e\tf\ng\nh');
    // eslint-disable-next-line no-control-regex -- the control characters are what this matches
    expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('leaves ordinary text, Unicode included, as it is', () => {
    const text = 'step 1/3: “Add login” ▶ ✓ café — 日本語\n\tindented';
    expect(terminalSafe(text)).toBe(text);
  });
});

describe('plainText / plainLine', () => {
  it('remove escape sequences whole (CSI, OSC to BEL or ST, C1 CSI) and every other control character; plainText keeps newlines', () => {
    expect(plainText('a\u001b]0;pwn\u0007b\u001b[31mc\u001b]52;c;eA==\u001b\\d\u009b2Je\u007ff\tg\r\nh\u0000\u001bM')).toBe('abcdef g\nh');
    expect(plainLine('  fix\tthe \u001b[1mbug\u001b[0m\r\nnow ')).toBe('fix the bug now');
    expect(plainLine('\u001b]0;pwn\u0007\u001b[31m')).toBe('');
  });

  it('is linear: a long run of unterminated sequences takes no time', () => {
    const t0 = performance.now();
    plainText('\u001b]'.repeat(100_000) + '\u001b['.repeat(100_000));
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('terminalText', () => {
  it('removes colours and OSC hyperlinks, so a name split by colour codes is in one piece', () => {
    expect(terminalText('\u001b[31mFAIL\u001b[39m list\u001b[2m > \u001b[22madds numbers')).toBe('FAIL list > adds numbers');
    expect(terminalText('\u001b]8;;file:///a.ts\u0007a.ts\u001b]8;;\u0007:3')).toBe('a.ts:3');
  });

  it('applies carriage-return redraws and backspaces, and reads CRLF as a newline', () => {
    expect(terminalText('progress 10%\rprogress 100%\r\ndone')).toBe('progress 100%\ndone');
    expect(terminalText('long line\rshort')).toBe('shortline');
    expect(terminalText('xx\r\u001b[Kyy')).toBe('yy');
    expect(terminalText('abc\b\bX')).toBe('aXc');
  });

  it('resolves a live reporter redrawing its last lines (cursor up, erase line)', () => {
    const live = 'RUN\n ❯ a.test.ts 0/2\n\u001b[1A\u001b[2K ✓ a.test.ts 2/2\nTests 2 passed\n';
    expect(terminalText(live)).toBe('RUN\n ✓ a.test.ts 2/2\nTests 2 passed\n');
  });

  it('leaves text without control characters as it is, and is idempotent', () => {
    const text = 'step 1/3: café\n\tindented';
    expect(terminalText(text)).toBe(text);
    const once = terminalText('\u001b[1mbold\u001b[0m\r\nnext\rNEXT');
    expect(terminalText(once)).toBe(once);
  });

  it('is linear: a megabyte of redraws and escapes takes well under a second', () => {
    const big = 'x'.repeat(100_000) + '\ry'.repeat(100_000) + '\u001b[31m'.repeat(100_000) + '\n'.repeat(100_000);
    const s = performance.now();
    terminalText(big);
    expect(performance.now() - s).toBeLessThan(1000);
  });
});
