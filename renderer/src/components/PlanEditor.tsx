// An editable list of plan steps (title, prompt, optional gates): add, remove, reorder. Used by New task and Revise plan.
import type { StepSpec } from '../../../shared/domain';
import { Icon } from './Icon';

export type EditableStep = { title: string; prompt: string; gates?: string[]; phase?: string };

export function toStepSpecs(steps: EditableStep[]): StepSpec[] {
  return steps
    .filter((s) => s.title.trim() !== '')
    .map((s) => ({ title: s.title.trim(), prompt: s.prompt, ...(s.gates?.length ? { gates: s.gates } : {}), ...(s.phase ? { phase: s.phase } : {}) }));
}

export function PlanEditor({
  steps,
  onChange,
  locked = [],
  label = 'Plan steps',
  estimates = [],
}: {
  steps: EditableStep[];
  onChange: (steps: EditableStep[]) => void;
  /** Indexes (0-based) shown read-only, e.g. committed steps a revision keeps. */
  locked?: number[];
  label?: string;
  /** Each step's share of the run's estimate, in words (a drafted plan's); null or absent: none shown. */
  estimates?: ReadonlyArray<string | null>;
}) {
  const set = (i: number, patch: Partial<EditableStep>) => onChange(steps.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: number) => {
    const j = i + by;
    if (j < 0 || j >= steps.length || locked.includes(j)) return;
    const copy = steps.slice();
    [copy[i], copy[j]] = [copy[j] as EditableStep, copy[i] as EditableStep];
    onChange(copy);
  };
  return (
    <fieldset className="plan-editor">
      <legend>{label}</legend>
      {steps.length === 0 && <p className="muted small-text">No steps yet. Add the first one.</p>}
      <ol>
        {steps.map((s, i) => {
          const isLocked = locked.includes(i);
          return (
            <li key={i} className="plan-step">
              <span className="plan-step-n">{i + 1}</span>
              <div className="plan-step-fields">
                <input
                  aria-label={`step ${i + 1} title`}
                  placeholder="Step title"
                  value={s.title}
                  disabled={isLocked}
                  onChange={(e) => set(i, { title: e.target.value })}
                />
                <textarea
                  aria-label={`step ${i + 1} prompt`}
                  placeholder="What the agent should do in this step (optional)"
                  rows={2}
                  value={s.prompt}
                  disabled={isLocked}
                  onChange={(e) => set(i, { prompt: e.target.value })}
                />
                {isLocked && <span className="muted small-text">committed — kept as is</span>}
                {estimates[i] && (
                  <span role="note" aria-label={`step ${i + 1} estimate`} className="muted small-text">
                    {estimates[i]}
                  </span>
                )}
              </div>
              <div className="plan-step-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`move step ${i + 1} up`}
                  disabled={i === 0 || isLocked || locked.includes(i - 1)}
                  onClick={() => move(i, -1)}
                >
                  <Icon name="arrowUp" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`move step ${i + 1} down`}
                  disabled={i === steps.length - 1 || isLocked || locked.includes(i + 1)}
                  onClick={() => move(i, 1)}
                >
                  <Icon name="arrowDown" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`remove step ${i + 1}`}
                  disabled={isLocked}
                  onClick={() => onChange(steps.filter((_, k) => k !== i))}
                >
                  <Icon name="close" />
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...steps, { title: '', prompt: '' }])}>
        + Add step
      </button>
    </fieldset>
  );
}
