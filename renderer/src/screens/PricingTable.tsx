// The editable model pricing table (USD per million tokens; cache reads and writes at their own rates).
import type { Settings } from '../../../shared/contract';
import { Icon } from '../components/Icon';

export type PriceRow = { model: string; input: string; output: string; cache_write: string; cache_read: string };
const COLUMNS = ['input', 'output', 'cache_write', 'cache_read'] as const;

export function pricingRows(p: Settings['pricing']): PriceRow[] {
  return Object.entries(p).map(([model, r]) => ({ model, input: String(r.input), output: String(r.output), cache_write: String(r.cache_write), cache_read: String(r.cache_read) }));
}

/** The table as the contract wants it, or null while a row is invalid (empty or duplicate name, negative or missing price). */
export function pricingFromRows(rows: PriceRow[]): Settings['pricing'] | null {
  const out: Settings['pricing'] = {};
  for (const r of rows) {
    const model = r.model.trim();
    if (!model || model in out) return null;
    const nums = COLUMNS.map((c) => (r[c].trim() === '' ? NaN : Number(r[c])));
    if (nums.some((n) => !Number.isFinite(n) || n < 0)) return null;
    const [input, output, cache_write, cache_read] = nums as [number, number, number, number];
    out[model] = { input, output, cache_write, cache_read };
  }
  return out;
}

export function PricingTable({ rows, onChange }: { rows: PriceRow[]; onChange: (rows: PriceRow[]) => void }) {
  const set = (i: number, patch: Partial<PriceRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  return (
    <>
      <table className="edit-table pricing">
        <thead>
          <tr><th scope="col">model</th><th scope="col" className="num">input</th><th scope="col" className="num">output</th><th scope="col" className="num">cache write</th><th scope="col" className="num">cache read</th><th /></tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td><input className="mono" aria-label={`model ${i + 1}`} value={r.model} onChange={(e) => set(i, { model: e.target.value })} /></td>
              {COLUMNS.map((c) => (
                <td key={c}>
                  <input type="number" min="0" step="0.01" className="num" aria-label={`${r.model || `model ${i + 1}`} ${c.replace('_', ' ')} price`} value={r[c]} onChange={(e) => set(i, { [c]: e.target.value })} aria-invalid={r[c].trim() === '' || Number(r[c]) < 0} />
                </td>
              ))}
              <td><button type="button" className="icon-button" aria-label={`remove ${r.model || `model ${i + 1}`}`} onClick={() => onChange(rows.filter((_, k) => k !== i))}><Icon name="close" /></button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => onChange([...rows, { model: '', input: '', output: '', cache_write: '', cache_read: '' }])}>+ Add model</button>
    </>
  );
}
