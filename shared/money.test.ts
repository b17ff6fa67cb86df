// money(): small amounts keep enough digits to be told apart; whole cents stay two decimals.
import { describe, expect, it } from 'vitest';
import { money } from './money';

describe('money', () => {
  it('shows a sub-cent budget and spend with four decimals', () => {
    expect([money(0.004), money(0.0059), money(0.125), money(0.00012), money(0.00002)]).toEqual(['$0.0040', '$0.0059', '$0.1250', '$0.0001', '$0.000020']);
  });
  it('keeps whole cents (and large amounts) at two decimals', () => {
    expect([money(1.5), money(2.25), money(0), money(20), money(12.3456), money(-0.5)]).toEqual(['$1.50', '$2.25', '$0.00', '$20.00', '$12.35', '-$0.50']);
  });
  it('never shows an unknown amount as zero', () => {
    expect([money(null), money(undefined), money(Number.NaN)]).toEqual(['unknown', 'unknown', 'unknown']);
  });
});
