// A run's cost against its budget: a bar plus the numbers (with enough digits for sub-cent budgets), amber past the alert threshold and red over budget.
import { money } from '../lib/format';

export function CostMeter({
  cost,
  budget,
  alertAt = 0.8,
  label = 'budget',
  projected = null,
}: {
  cost: number | null;
  budget: number | null;
  alertAt?: number;
  label?: string;
  /** Paused at the budget: what the next call would bring the spend to. The bar turns amber and marks it (issue 34 item 4). */
  projected?: number | null;
}) {
  if (budget === null || cost === null) {
    return (
      <div className="cost-meter">
        <span className="cost-value">{money(cost)}</span>
        <span className="muted">{cost === null ? 'a model price is unknown' : 'no budget'}</span>
      </div>
    );
  }
  const ratio = budget > 0 ? cost / budget : 0;
  const tone = projected !== null && ratio < 1 ? 'attention' : ratio >= 1 ? 'bad' : ratio >= alertAt ? 'attention' : 'good';
  const mark = projected !== null && budget > 0 ? Math.min(projected / budget, 1) : null;
  return (
    <div className="cost-meter">
      <span className="cost-value">{money(cost)}</span>
      <span className="muted">
        of {money(budget)} {label}
      </span>
      {/* A styled bar rather than <meter>, whose look the OS theme decides and which ignores dark mode. */}
      <span
        className={`meter meter-${tone}`}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(ratio * 100)}
        aria-label={`${Math.round(ratio * 100)} % of the ${label}`}
      >
        <span className="meter-fill" style={{ width: `${Math.min(ratio, 1) * 100}%` }} />
        {mark !== null && (
          <span
            className="meter-mark"
            data-testid="projected-mark"
            title={`the next call: ${money(projected)}`}
            style={{ left: `calc(${mark * 100}% - 1px)` }}
          />
        )}
      </span>
      {/* "0 %" would say nothing was spent: a little is "< 1 %". */}
      <span className="muted small-text">{ratio > 0 && ratio < 0.005 ? '< 1 %' : `${Math.round(ratio * 100)} %`}</span>
    </div>
  );
}
