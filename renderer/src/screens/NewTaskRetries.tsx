// New task's "Retries and budget": the retry preset, the task's budget, max retries, agent timeout and the failure classes a retry is allowed on.
import { StartRunInput } from '../../../shared/contract';
import { PresetOptions } from '../components/PresetOptions';

export type Preset = NonNullable<StartRunInput['preset']>;
/** Classes a retry can help with; the task's allow_retry_on picks among them. */
export const RETRY_CLASSES = ['test_failure', 'compilation_error', 'crash', 'timeout', 'api_error', 'rate_limit', 'git_conflict'] as const;

/** The fields as typed; the screen checks them and builds runs.start's retry and budget from them. */
export interface RetryForm {
  preset: Preset | null;
  budget: string;
  maxRetries: string;
  timeoutS: string;
  retryOn: string[];
}

/** The fields read: the budget and runs.start's retry, and which fields are invalid (each says so beside it, and Start says what it needs). */
export function parseRetryForm(form: RetryForm) {
  const budgetNumber = form.budget.trim() === '' ? undefined : Number(form.budget);
  // Checked with the contract's own schema (runs.start's budgetUsd): any amount above 0, in dollars and cents or less.
  const budgetInvalid = budgetNumber !== undefined && !StartRunInput.shape.budgetUsd.safeParse(budgetNumber).success;
  const maxRetriesNumber = form.maxRetries.trim() === '' ? undefined : Number(form.maxRetries);
  const maxRetriesInvalid = maxRetriesNumber !== undefined && !(Number.isInteger(maxRetriesNumber) && maxRetriesNumber >= 0);
  const timeoutNumber = form.timeoutS.trim() === '' ? undefined : Number(form.timeoutS);
  const timeoutInvalid = timeoutNumber !== undefined && !(Number.isFinite(timeoutNumber) && timeoutNumber > 0);
  const retry: NonNullable<StartRunInput['retry']> = {
    ...(maxRetriesNumber !== undefined ? { maxRetries: maxRetriesNumber } : {}),
    ...(timeoutNumber !== undefined ? { timeoutSeconds: timeoutNumber } : {}),
    ...(form.retryOn.length ? { allowRetryOn: form.retryOn as NonNullable<NonNullable<StartRunInput['retry']>['allowRetryOn']> } : {}),
  };
  return { budgetNumber, retry, invalid: { budget: budgetInvalid, maxRetries: maxRetriesInvalid, timeout: timeoutInvalid } };
}

export function RetriesFieldset({
  form,
  onChange,
  defaults,
  invalid,
}: {
  form: RetryForm;
  onChange: (form: RetryForm) => void;
  /** Settings' preset and budget, shown as what an empty field means. */
  defaults: { preset: string | undefined; budgetUsd: number | null | undefined };
  invalid: { budget: boolean; maxRetries: boolean; timeout: boolean };
}) {
  const { preset, budget, maxRetries, timeoutS, retryOn } = form;
  const set = (patch: Partial<RetryForm>) => onChange({ ...form, ...patch });
  return (
    <fieldset className="inline-fields">
      <legend>Retries and budget</legend>
      <label className="field-inline">
        Retry preset
        <select value={preset ?? ''} onChange={(e) => set({ preset: (e.target.value || null) as Preset | null })}>
          <option value="">Default ({defaults.preset ?? 'from settings'})</option>
          <PresetOptions />
        </select>
      </label>
      <label className="field-inline">
        Budget (USD)
        <input
          type="number"
          min="0"
          step="any"
          inputMode="decimal"
          value={budget}
          onChange={(e) => set({ budget: e.target.value })}
          placeholder={defaults.budgetUsd ? String(defaults.budgetUsd) : 'none'}
          aria-invalid={invalid.budget}
          aria-describedby={invalid.budget ? 'err-task-budget' : undefined}
        />
        {invalid.budget && (
          <span id="err-task-budget" className="field-error">
            The budget must be more than $0 (leave it empty for the workflow’s or Settings’ budget).
          </span>
        )}
      </label>
      <WholeNumberField label="Max retries" min="0" value={maxRetries} onChange={(v) => set({ maxRetries: v })} invalid={invalid.maxRetries} />
      <WholeNumberField label="Agent timeout (s)" min="1" value={timeoutS} onChange={(v) => set({ timeoutS: v })} invalid={invalid.timeout} />
      <span className="field-inline retry-on" role="group" aria-label="retry only on">
        Retry only on
        {RETRY_CLASSES.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={retryOn.includes(c)}
              onChange={(e) => set({ retryOn: e.target.checked ? [...retryOn, c] : retryOn.filter((x) => x !== c) })}
            />{' '}
            {c}
          </label>
        ))}
        {retryOn.length === 0 && <span className="muted small-text"> (none ticked: every retriable class)</span>}
      </span>
    </fieldset>
  );
}

/** A whole-number field left empty for the workflow's value. */
function WholeNumberField(props: { label: string; min: string; value: string; onChange: (value: string) => void; invalid: boolean }) {
  return (
    <label className="field-inline">
      {props.label}
      <input
        type="number"
        min={props.min}
        step="1"
        inputMode="numeric"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder="workflow's"
        aria-invalid={props.invalid}
      />
    </label>
  );
}
