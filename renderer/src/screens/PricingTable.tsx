// The editable model pricing table (USD per million tokens; cache reads and writes at their own rates).
import type { Settings } from '../../../shared/contract';
import { Icon } from '../components/Icon';

export type PriceRow = { model: string; input: string; output: string; cache_write: string; cache_read: string };
const COLUMNS = ['input', 'output', 'cache_write', 'cache_read'] as const;

export function pricingRows(p: Settings['pricing']): PriceRow[] {
  return Object.entries(p).map(([model, r]) => ({
    model,
    input: String(r.input),
    output: String(r.output),
    cache_write: String(r.cache_write),
    cache_read: String(r.cache_read),
  }));
}

/**
 * `errors`: each cell's problem as a sentence, keyed `pricing.<row>.<column|model>` (settings-form.ts), shown under the cell;
 * `errorId` gives the id the cell's aria-describedby names.
 */
export function PricingTable({
  rows,
  onChange,
  errors = {},
  errorId = (k) => `err-${k}`,
}: {
  rows: PriceRow[];
  onChange: (rows: PriceRow[]) => void;
  errors?: Record<string, string>;
  errorId?: (key: string) => string;
}) {
  const cell = (key: string) => ({
    'aria-invalid': errors[key] !== undefined,
    'aria-describedby': errors[key] ? errorId(key) : undefined,
  });
  const said = (key: string) =>
    errors[key] ? (
      <span id={errorId(key)} className="field-error">
        {errors[key]}
      </span>
    ) : null;
  const set = (i: number, patch: Partial<PriceRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  return (
    <>
      <table className="edit-table pricing">
        <thead>
          <tr>
            <th scope="col">model</th>
            <th scope="col" className="num">
              input
            </th>
            <th scope="col" className="num">
              output
            </th>
            <th scope="col" className="num">
              cache write
            </th>
            <th scope="col" className="num">
              cache read
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input
                  className="mono"
                  aria-label={`model ${i + 1}`}
                  value={r.model}
                  onChange={(e) => set(i, { model: e.target.value })}
                  {...cell(`pricing.${i}.model`)}
                />
                {said(`pricing.${i}.model`)}
              </td>
              {COLUMNS.map((c) => (
                <td key={c}>
                  {/* step="any": a price like 0.125 is as valid as 3; the form checks values itself (settings-form.ts), in sentences. */}
                  <input
                    type="number"
                    min="0"
                    step="any"
                    inputMode="decimal"
                    className="num"
                    aria-label={`${r.model || `model ${i + 1}`} ${c.replace('_', ' ')} price`}
                    value={r[c]}
                    onChange={(e) => set(i, { [c]: e.target.value })}
                    {...cell(`pricing.${i}.${c}`)}
                  />
                  {said(`pricing.${i}.${c}`)}
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`remove ${r.model || `model ${i + 1}`}`}
                  onClick={() => onChange(rows.filter((_, k) => k !== i))}
                >
                  <Icon name="close" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => onChange([...rows, { model: '', input: '', output: '', cache_write: '', cache_read: '' }])}>
        + Add model
      </button>
    </>
  );
}
