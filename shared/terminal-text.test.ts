import { describe, expect, it } from 'vitest';
import { plainLine, plainText, terminalSafe } from './terminal-text';

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
