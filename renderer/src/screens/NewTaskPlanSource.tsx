// New task's plan source: the tabs (write steps, the repo's workflow, drafted by the agent) and the workflow file's or the draft's panel.
import type { MethodOutput } from '../../../shared/contract';
import { plural } from '../lib/format';
import { Empty, ErrorState, InlineError, Loading } from '../components/States';

export type Source = 'hand' | 'workflow' | 'draft';
/** The repository's workflow file as loaded for New task. */
export interface WorkflowState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: MethodOutput<'workflow.load'> | null;
  error: string | null;
}
/** The agent's drafted plan: its Markdown and whether the user approved its steps. */
export interface DraftState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  markdown: string;
  error: string | null;
  approved: boolean;
}

export function PlanSourceTabs({ source, onChoose }: { source: Source; onChoose: (s: Source) => void }) {
  return (
    <div className="tabs" role="tablist" aria-label="where the plan comes from">
      {(
        [
          ['hand', 'Write steps'],
          ['workflow', 'From the repo’s workflow'],
          ['draft', 'Drafted by the agent'],
        ] as const
      ).map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="tab"
          aria-selected={source === value}
          className={`tab${source === value ? ' tab-active' : ''}`}
          onClick={() => onChoose(value)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** The repository's workflow file: loaded, missing, or with problems. */
export function WorkflowPanel({ workflow, stepsEdited, onRetry }: { workflow: WorkflowState; stepsEdited: boolean; onRetry: () => void }) {
  return (
    <div className="source-panel">
      {workflow.status === 'loading' && <Loading label="Reading ratchet.yml…" />}
      {workflow.status === 'error' && <ErrorState message={workflow.error ?? ''} onRetry={onRetry} />}
      {workflow.data &&
        (workflow.data.file ? (
          <p className="small-text">
            {workflow.data.steps.length ? (
              <>
                Loaded <code>{workflow.data.file}</code>: {plural(workflow.data.steps.length, 'step')}.{' '}
                {stepsEdited
                  ? 'You changed them: the run follows your steps below.'
                  : 'The run follows them as they are; edit them below to run your version instead.'}
              </>
            ) : (
              <>
                <code>{workflow.data.file}</code> leaves the steps to each task: write this task’s below.
              </>
            )}
          </p>
        ) : (
          <Empty title="No workflow file">
            This repository has no <code>ratchet.yml</code> or <code>.ratchet/workflow.yml</code>. Write the steps by hand or let the agent draft them;{' '}
            <code>ratchet init</code> writes a workflow file from what the repository uses.
          </Empty>
        ))}
      {workflow.data && workflow.data.problems.length > 0 && (
        <div className="warning-box" role="alert">
          <strong>The workflow file has problems</strong>
          <ul>
            {workflow.data.problems.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The agent drafts a plan from the title and description; its steps go to the plan editor, and the user approves them. */
export function DraftPanel({
  title,
  draft,
  onDraft,
  onChange,
}: {
  title: string;
  draft: DraftState;
  onDraft: () => void;
  onChange: (draft: DraftState) => void;
}) {
  return (
    <div className="source-panel">
      <button type="button" onClick={onDraft} disabled={!title.trim() || draft.status === 'loading'}>
        {draft.status === 'ready' ? 'Draft again' : 'Draft a plan'}
      </button>
      {!title.trim() && <span className="muted small-text"> Give the task a title first.</span>}
      {draft.status === 'loading' && <Loading label="The agent is reading the repository and drafting a plan…" />}
      <InlineError message={draft.error} />
      {draft.status === 'ready' && (
        <>
          <label className="field">
            Drafted plan (Markdown, yours to edit and keep as notes)
            <textarea className="mono" rows={8} value={draft.markdown} onChange={(e) => onChange({ ...draft, markdown: e.target.value, approved: false })} />
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.approved} onChange={(e) => onChange({ ...draft, approved: e.target.checked })} /> I have read the plan and
            approve these steps
          </label>
        </>
      )}
    </div>
  );
}
