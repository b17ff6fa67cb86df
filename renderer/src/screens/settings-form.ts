// Pure: the Settings form's text fields turned into a `settings.set` patch, checked with the contract's own schema, each problem a sentence keyed by its field.
import { methods, type MethodInput, type Settings } from '../../../shared/contract';
import { NOTIFY_CHANNELS } from '../../../shared/notify-channels';
import type { PriceRow } from './PricingTable';

export const PRICE_COLUMNS = ['input', 'output', 'cache_write', 'cache_read'] as const;
export type PriceColumn = (typeof PRICE_COLUMNS)[number];
const PRICE_LABEL: Record<PriceColumn, string> = { input: 'Input', output: 'Output', cache_write: 'Cache write', cache_read: 'Cache read' };

/** What the user typed, as typed (numbers are text until checked). */
export interface SettingsFields {
  model: string;
  preset: Settings['preset'];
  taskUsd: string;
  dailyUsd: string;
  alertPct: string;
  concurrency: string;
  notifications: boolean;
  worktreeFolder: string;
  sandbox: boolean;
  notify: Settings['notify'];
  prices: PriceRow[];
}

/** A field's key: `defaultModel`, `budget.taskUsd`, `budget.dailyUsd`, `budget.alertAt`, `concurrency`, `pricing.<row>.<column|model>`, `notify.ntfy`, … */
export type FieldErrors = Record<string, string>;

export type Checked = { ok: true; patch: MethodInput<'settings.set'> } | { ok: false; errors: FieldErrors };

/** A field's text as a number: empty is `empty`, anything else that is not a number is NaN (which the schema refuses). */
function num(text: string, empty: null): number | null;
function num(text: string, empty: number): number;
function num(text: string, empty: number | null): number | null {
  const t = text.trim();
  return t === '' ? empty : Number(t);
}

/** A key for one cell of the pricing table. */
export const priceKey = (row: number, column: PriceColumn | 'model') => `pricing.${row}.${column}`;

function sentence(key: string, rows: PriceRow[]): string {
  switch (key) {
    case 'defaultModel':
      return 'Name the default model (for example claude-sonnet-5-5).';
    case 'budget.taskUsd':
      return 'The task budget must be more than $0 (leave it empty for none).';
    case 'budget.dailyUsd':
      return 'The daily budget must be more than $0 (leave it empty for none).';
    case 'budget.alertAt':
      return 'Alert at must be a percentage from 1 to 100.';
    case 'concurrency':
      return 'Runs at once must be a whole number from 1 to 16.';
    case 'worktreeFolder':
      return 'The worktree folder must be a path, or empty for the default.';
  }
  const price = /^pricing\.(\d+)\.(\w+)$/.exec(key);
  if (price) {
    const column = price[2] as PriceColumn;
    const model = rows[Number(price[1])]?.model.trim() || `model ${Number(price[1]) + 1}`;
    return `${PRICE_LABEL[column]} price for ${model} must be a number ≥ 0.`;
  }
  const channel = NOTIFY_CHANNELS.find((c) => key === `notify.${c.name}`);
  if (channel) return channel.field.invalid;
  return `${key} is not valid.`;
}

/** Checks every field with the contract's `settings.set` schema; the patch is sent only when every field passes. */
export function checkSettings(f: SettingsFields): Checked {
  const errors: FieldErrors = {};
  // The pricing table is a record keyed by model name: names are checked here, prices by the schema (mapped back to their row).
  const rowOf = new Map<string, number>();
  f.prices.forEach((r, i) => {
    const name = r.model.trim();
    if (!name) errors[priceKey(i, 'model')] = `Model ${i + 1} needs a name.`;
    else if (rowOf.has(name)) errors[priceKey(i, 'model')] = `${name} is listed twice; keep one row.`;
    else rowOf.set(name, i);
  });
  const pricing: Record<string, Record<PriceColumn, number>> = {};
  for (const [name, i] of rowOf) {
    const r = f.prices[i]!;
    pricing[name] = { input: num(r.input, NaN), output: num(r.output, NaN), cache_write: num(r.cache_write, NaN), cache_read: num(r.cache_read, NaN) };
  }
  const alertPct = num(f.alertPct, NaN);
  const candidate = {
    defaultModel: f.model.trim(),
    preset: f.preset,
    notifications: f.notifications,
    worktreeFolder: f.worktreeFolder.trim() || null,
    sandbox: f.sandbox,
    concurrency: num(f.concurrency, NaN),
    notify: f.notify,
    budget: { taskUsd: num(f.taskUsd, null), dailyUsd: num(f.dailyUsd, null), alertAt: alertPct / 100 },
    pricing,
  };
  const parsed = methods['settings.set'].input.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, second, third] = issue.path.map(String);
      let key = head ?? '';
      if (head === 'budget' || head === 'notify') key = `${head}.${second}`;
      if (head === 'pricing') key = priceKey(rowOf.get(second ?? '') ?? 0, (third ?? 'input') as PriceColumn);
      errors[key] ??= sentence(key, f.prices);
    }
  }
  // The schema allows up to 100 %, and "more than 0": the form says whole percentages from 1.
  if (!(alertPct >= 1 && alertPct <= 100)) errors['budget.alertAt'] ??= sentence('budget.alertAt', f.prices);
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, patch: parsed.data };
}
