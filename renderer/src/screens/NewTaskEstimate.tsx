// New task's estimate under the plan: what the run would cost and take, what that rests on, and a warning with "Set it
// there" when the task budget is below the 90th percentile (the run would likely pause for its budget); and each drafted
// step's share of it, from the same answer.
import { useEffect, useState } from 'react';
import type { StartRunInput } from '../../../shared/contract';
import type { PlanEstimate, RunEstimate } from '../../../shared/domain';
import { budgetWarning, estimateLine, estimateRange } from '../../../shared/estimate-text';
import { useRuns } from '../stores/runs';

/** How long the form must rest before it is estimated again (each keystroke in the plan changes the input). */
const SETTLE_MS = 400;

/** The budget to set: the 90th percentile, up to the next cent. */
export const budgetAt = (e: RunEstimate) => Math.max(0.01, Math.ceil(e.usd.p90 * 100 - 1e-6) / 100); // 1.1 × 100 is 110.00000000000001

/** The estimate of `input` (null: no task to estimate yet), asked again once the form rests; `fresh` is false while a newer one is on its way. */
export function useEstimate(input: StartRunInput | null): { value: PlanEstimate | null; fresh: boolean } {
  const [estimate, setEstimate] = useState<{ key: string; value: PlanEstimate | null; error: boolean }>({ key: '', value: null, error: false });
  const key = input ? JSON.stringify(input) : '';
  useEffect(() => {
    if (!input) return;
    let live = true;
    const t = setTimeout(() => {
      useRuns
        .getState()
        .estimate(input)
        .then(
          (value) => live && setEstimate({ key, value, error: false }),
          () => live && setEstimate({ key, value: null, error: true }),
        );
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
    // The input is compared by its JSON (a new object each render): `key` stands for it.
  }, [key]);
  return { value: input ? estimate.value : null, fresh: estimate.key === key };
}

/**
 * Each plan step's share of the estimate, in words, for the steps as the editor holds them: a step without a title is
 * not sent (toStepSpecs), so it has none; null for all while the estimate is of another plan (a step added or removed).
 */
export function stepShares(estimate: PlanEstimate | null, titles: readonly string[]): Array<string | null> {
  const sent = titles.filter((t) => t.trim() !== '').length;
  if (!estimate || estimate.steps.length !== sent) return titles.map(() => null);
  let k = 0;
  return titles.map((t) => (t.trim() === '' ? null : estimateRange(estimate.steps[k++]!)));
}

export function EstimatePanel({
  estimate,
  budgetUsd,
  onSetBudget,
}: {
  estimate: { value: RunEstimate | null; fresh: boolean };
  budgetUsd: number | null;
  onSetBudget: (usd: number) => void;
}) {
  if (!estimate.value) return null;
  const e = estimate.value;
  const warning = budgetWarning(e, budgetUsd);
  return (
    <section className="estimate small-text" aria-label="estimate">
      <p className={estimate.fresh ? '' : 'muted'}>
        <strong>Estimate:</strong> {estimateLine(e)}
      </p>
      {warning && (
        <p className="warning-box" role="group" aria-label="budget below estimate">
          {warning}{' '}
          <button type="button" onClick={() => onSetBudget(budgetAt(e))}>
            Set it to ${budgetAt(e).toFixed(2)}
          </button>
        </p>
      )}
    </section>
  );
}
