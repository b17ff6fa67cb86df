// What-if on the dashboard: pick another retry policy and see, from the period's recorded attempts, which runs would change outcome.
import { useEffect, useState } from 'react';
import type { WhatIfDoc } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useStats } from '../stores/stats';
import { money } from '../lib/format';
import { hrefs } from '../lib/route';

type Preset = 'conservative' | 'aggressive' | 'minimal';

interface Choice {
  preset: Preset | '';
  maxRetries: string;
  compile: string;
  taskUsd: string;
}

const OUTCOME: Record<string, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  needs_you: 'needs you',
  budget: 'stopped by budget',
  unknown: 'unknown',
  other: '—',
};

/** The form's values as the contract's choice; a problem names the field. */
export function toWhatIfChoice(
  c: Choice,
):
  | { ok: true; value: { preset?: Preset; maxRetries?: number; limits?: { compilation_error: number }; taskUsd?: number } }
  | { ok: false; field: string; message: string } {
  const value: { preset?: Preset; maxRetries?: number; limits?: { compilation_error: number }; taskUsd?: number } = {};
  if (c.preset) value.preset = c.preset;
  const whole = (s: string, field: string, max: number) => {
    const n = Number(s);
    return s.trim() === '' ? null : Number.isInteger(n) && n >= 0 && n <= max ? n : { field, message: `${field}: a whole number from 0 to ${max}.` };
  };
  const mr = whole(c.maxRetries, 'Max retries', 20);
  if (mr !== null && typeof mr === 'object') return { ok: false, ...mr };
  if (typeof mr === 'number') value.maxRetries = mr;
  const ce = whole(c.compile, 'Compilation error retries', 20);
  if (ce !== null && typeof ce === 'object') return { ok: false, ...ce };
  if (typeof ce === 'number') value.limits = { compilation_error: ce };
  if (c.taskUsd.trim() !== '') {
    const n = Number(c.taskUsd);
    if (!(n > 0)) return { ok: false, field: 'Budget per run', message: 'Budget per run: an amount in dollars above 0 (like 0.50), or empty for none.' };
    value.taskUsd = n;
  }
  return { ok: true, value };
}

export function WhatIfPanel({ days }: { days: 7 | 30 }) {
  const [choice, setChoice] = useState<Choice>({ preset: 'minimal', maxRetries: '', compile: '', taskUsd: '' });
  const [result, setResult] = useState<WhatIfDoc | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parsed = toWhatIfChoice(choice);

  async function run() {
    if (!parsed.ok) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await useStats.getState().whatIf({ days, ...parsed.value }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  // A new period answers for the same choice.
  useEffect(() => {
    setResult(null);
  }, [days]);

  const set = (k: keyof Choice) => (e: { target: { value: string } }) => setChoice((c) => ({ ...c, [k]: e.target.value }));
  return (
    <section className="card what-if" aria-labelledby="h-whatif">
      <h2 id="h-whatif">What if…</h2>
      <p className="muted small-text">Replay the last {days} days&apos; recorded attempts under another retry policy.</p>
      <form
        className="what-if-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label>
          Preset
          <select value={choice.preset} onChange={set('preset')}>
            <option value="">(seed defaults)</option>
            <option value="minimal">minimal (1 retry)</option>
            <option value="conservative">conservative (3 retries)</option>
            <option value="aggressive">aggressive (5 retries)</option>
          </select>
        </label>
        <label>
          Max retries
          <input
            inputMode="numeric"
            placeholder="from preset"
            value={choice.maxRetries}
            onChange={set('maxRetries')}
            aria-invalid={!parsed.ok && parsed.field === 'Max retries'}
          />
        </label>
        <label>
          Compilation error retries
          <input
            inputMode="numeric"
            placeholder="2"
            value={choice.compile}
            onChange={set('compile')}
            aria-invalid={!parsed.ok && parsed.field === 'Compilation error retries'}
          />
        </label>
        <label>
          Budget per run ($)
          <input
            inputMode="decimal"
            placeholder="none"
            value={choice.taskUsd}
            onChange={set('taskUsd')}
            aria-invalid={!parsed.ok && parsed.field === 'Budget per run'}
          />
        </label>
        <button type="submit" className="primary" disabled={!parsed.ok || busy}>
          {busy ? 'Replaying…' : 'Replay'}
        </button>
      </form>
      {!parsed.ok && (
        <p className="field-error" role="alert">
          {parsed.message}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          Could not replay the history: {error}
        </p>
      )}
      {result && <WhatIfResult r={result} />}
    </section>
  );
}

function WhatIfResult({ r }: { r: WhatIfDoc }) {
  if (r.runs === 0) return <p className="muted">No finished runs in this period to replay.</p>;
  const rows: Array<[string, number, number]> = [
    ['succeeded', r.actual.succeeded, r.simulated.succeeded],
    ['failed', r.actual.failed, r.simulated.failed],
    ['needs you', r.actual.needsYou, r.simulated.needsYou],
    ['stopped by budget', r.actual.budget, r.simulated.budget],
    ['unknown (an attempt that never happened)', r.actual.unknown, r.simulated.unknown],
  ];
  return (
    <div className="what-if-result">
      <table className="compact">
        <caption className="sr-only">Outcomes as recorded and under the chosen policy</caption>
        <thead>
          <tr>
            <th scope="col">
              {r.runs} {r.runs === 1 ? 'run' : 'runs'}
            </th>
            <th scope="col" className="num">
              as recorded
            </th>
            <th scope="col" className="num">
              with this policy
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, a, s]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="num">{a}</td>
              <td className={`num${a !== s ? ' changed' : ''}`}>{s}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">cost</th>
            <td className="num">{money(r.actual.costUsd)}</td>
            <td className="num">
              {r.simulated.unknown > 0 ? 'at least ' : ''}
              {money(r.simulated.costUsd)}
            </td>
          </tr>
        </tbody>
      </table>
      <h3>{changedHeading(r.changedCount, r.changed.length)}</h3>
      {r.changed.length > 0 && (
        <ul className="what-if-changed">
          {r.changed.map((c) => (
            <li key={c.runId}>
              <a href={hrefs.run(c.runId)}>{c.title}</a>: {OUTCOME[c.actual]} → <strong>{OUTCOME[c.simulated]}</strong>{' '}
              <span className="muted">({c.reason})</span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="small-text">Assumptions</h3>
      <ul className="small-text muted what-if-assumptions">
        {r.assumptions.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
    </div>
  );
}

/** "3 runs change outcome"; over a long period only the most expensive are listed, and the heading says so. */
function changedHeading(count: number, listed: number): string {
  if (count === 0) return 'No run changes outcome.';
  const head = `${count.toLocaleString('en-US')} ${count === 1 ? 'run changes' : 'runs change'} outcome`;
  return listed < count ? `${head}; the most expensive ${listed} of them:` : head;
}
