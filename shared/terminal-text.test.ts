import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal-text';

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
