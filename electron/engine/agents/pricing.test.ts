import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING_FILE } from '../engine';
import { loadPricing, priceUsage } from './pricing';

describe('pricing', () => {
  const table = loadPricing(DEFAULT_PRICING_FILE);
  it('prices each token kind at its own rate', () => {
    const cost = priceUsage(table, 'claude-sonnet-5-5', {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheWriteTokens: 1_000_000,
      cacheReadTokens: 1_000_000,
    });
    expect(cost).toBeCloseTo(2 + 10 + 2.5 + 0.1, 10);
  });
  it('knows dated model ids and prices unknown models as unknown, not zero', () => {
    expect(priceUsage(table, 'claude-haiku-4-5-20251001', { inputTokens: 1_000_000, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 })).toBeCloseTo(
      1,
      10,
    );
    expect(priceUsage(table, 'claude-imaginary-9', { inputTokens: 1, outputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 0 })).toBeNull();
  });
});
