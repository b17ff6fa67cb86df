// Prices API usage per model from an editable table; an unknown model costs "unknown" (null), never zero.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const Rate = z.object({ input: z.number().min(0), output: z.number().min(0), cache_write: z.number().min(0), cache_read: z.number().min(0) });
export const PricingTable = z.object({ note: z.string().optional(), models: z.record(z.string(), Rate) });
export type PricingTable = z.infer<typeof PricingTable>;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function loadPricing(file: string): PricingTable {
  return PricingTable.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Finds the rate for a model id, also for dated ids such as `claude-sonnet-4-5-20250929`. */
export function rateFor(table: PricingTable, model: string): z.infer<typeof Rate> | null {
  if (table.models[model]) return table.models[model];
  const undated = model.replace(/-\d{8}$/, '').replace(/-latest$/, '');
  return table.models[undated] ?? null;
}

export function priceUsage(table: PricingTable, model: string, u: Usage): number | null {
  const r = rateFor(table, model);
  if (!r) return null;
  return (u.inputTokens * r.input + u.outputTokens * r.output + u.cacheWriteTokens * r.cache_write + u.cacheReadTokens * r.cache_read) / 1_000_000;
}
