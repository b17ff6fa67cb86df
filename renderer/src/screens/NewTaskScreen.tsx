// New task: title and description, a plan (written, loaded from the repo's workflow, or drafted and approved), the project's setup and gates (the repo's workflow file, else detected) with "Check project", preset, budget, this task's retry configuration.
import { useEffect, useState } from 'react';
import { StartRunInput, type AgentChoice, type MethodOutput } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { plural } from '../lib/format';
import { hrefs, navigate } from '../lib/route';
import { useRuns } from '../stores/runs';
import { useSettings } from '../stores/settings';
import { gatesRecord } from '../components/GatesEditor';
import { PlanEditor, toStepSpecs, type EditableStep } from '../components/PlanEditor';
import { Empty, ErrorState, InlineError, Loading } from '../components/States';
import { useRepoPicker } from '../components/FolderBrowser';
import { NoKeyNotice } from '../components/NoKeyNotice';
import { baselineKey, useProject, type BaselineInput } from '../stores/project';
import { lines, ProjectSection, words, type EnvForm } from './NewTaskProject';

type RepoInfo = MethodOutput<'repos.inspect'>;
type Source = 'hand' | 'workflow' | 'draft';
type Preset = NonNullable<StartRunInput['preset']>;
/** Classes a retry can help with; the task's allow_retry_on picks among them. */
const RETRY_CLASSES = ['test_failure', 'compilation_error', 'crash', 'timeout', 'api_error', 'rate_limit', 'git_conflict'] as const;

export function NewTaskScreen({ repoPath }: { repoPath: string | null }) {
  const [repo, setRepo] = useState<{ status: 'loading' | 'ready' | 'error'; info: RepoInfo | null; error: string | null }>({
    status: 'loading',
    info: null,
    error: null,
  });
  const [reload, setReload] = useState(0);
  useEffect(() => {
    if (!repoPath) return;
    let live = true;
    setRepo({ status: 'loading', info: null, error: null });
    useProject
      .getState()
      .inspect(repoPath)
      .then(
        (info) => live && setRepo({ status: 'ready', info, error: null }),
        (err: unknown) => live && setRepo({ status: 'error', info: null, error: errorMessage(err) }),
      );
    return () => {
      live = false;
    };
  }, [repoPath, reload]);

  if (!repoPath) return <ChooseRepo />;
  if (repo.status === 'loading')
    return (
      <div className="screen">
        <Loading label="Inspecting the repository…" />
      </div>
    );
  if (repo.status === 'error' || !repo.info) {
    return (
      <div className="screen">
        <h1>New task</h1>
        <ErrorState title="This folder cannot be used" message={repo.error ?? ''} onRetry={() => setReload((k) => k + 1)} />
      </div>
    );
  }
  return <TaskForm key={repo.info.root} repo={repo.info} />;
}

/** No repository yet: one of the recent ones, or Open… (the native dialog in the app, the host's folder browser in a browser). */
function ChooseRepo() {
  const [error, setError] = useState<string | null>(null);
  const picker = useRepoPicker((path) => navigate(hrefs.newTask(path)), setError);
  const recent = useRuns((s) => s.recent);
  const loadRecent = useRuns((s) => s.loadRecent);
  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);
  const canDrop = typeof window.ratchet?.pathForFile === 'function';
  return (
    <div className="screen">
      <h1>New task</h1>
      <Empty title="Choose a repository first">
        <button
          type="button"
          className="primary"
          onClick={() => {
            setError(null);
            picker.pick();
          }}
        >
          Open…
        </button>{' '}
        a git repository
        {canDrop ? (
          <>
            , or <a href={hrefs.home()}>drop one</a> on the Runs screen
          </>
        ) : (
          ''
        )}
        ; the task runs in a worktree of its own.
      </Empty>
      {recent.data.length > 0 && (
        <section className="card recent" aria-labelledby="h-new-recent">
          <h2 id="h-new-recent">Recent repositories</h2>
          <ul className="plain-list recent-list" aria-label="recent repositories">
            {recent.data.map((r) => (
              <li key={r.path}>
                <button type="button" className="link-button" onClick={() => navigate(hrefs.newTask(r.path))}>
                  <strong>{r.name}</strong> <span className="muted small-text mono">{r.path}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <InlineError message={error} />
      {picker.dialog}
    </div>
  );
}

function TaskForm({ repo }: { repo: RepoInfo }) {
  const settings = useSettings((s) => s.settings);
  const loadSettings = useSettings((s) => s.load);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [source, setSource] = useState<Source>('hand');
  const [steps, setSteps] = useState<EditableStep[]>([{ title: '', prompt: '' }]);
  /** Setup, files to copy and gates: the repository's workflow file's, else detected; never a guess (no `npm test` without package.json). */
  const [env, setEnv] = useState<EnvForm>({ setup: '', network: '', copy: '', gates: [] });
  /** The user changed the environment: the run uses theirs, not the file's or detection's. */
  const [envEdited, setEnvEdited] = useState(false);
  const [preset, setPreset] = useState<Preset | null>(null);
  const [budget, setBudget] = useState('');
  const [maxRetries, setMaxRetries] = useState('');
  const [timeoutS, setTimeoutS] = useState('');
  const [retryOn, setRetryOn] = useState<string[]>([]);
  const [workflow, setWorkflow] = useState<{
    status: 'idle' | 'loading' | 'ready' | 'error';
    data: MethodOutput<'workflow.load'> | null;
    error: string | null;
  }>({ status: 'idle', data: null, error: null });
  const [draft, setDraft] = useState<{ status: 'idle' | 'loading' | 'ready' | 'error'; markdown: string; error: string | null; approved: boolean }>({
    status: 'idle',
    markdown: '',
    error: null,
    approved: false,
  });
  /** The user changed the loaded workflow's steps: run theirs (with the file's settings). */
  const [stepsEdited, setStepsEdited] = useState(false);
  /** The user pressed Trust for the repository's workflow file (stored by the engine when the run starts). */
  const [trusted, setTrusted] = useState(false);
  const [trustError, setTrustError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  /** Who does the steps written here: the Anthropic API (needs a key) or Claude Code's CLI (its own login). */
  const [agent, setAgent] = useState<AgentChoice>('anthropic');

  const detection = useProject((s) => s.detection[repo.root]);
  const baseline = useProject((s) => s.baseline[repo.root]);

  useEffect(() => {
    if (!settings) void loadSettings();
  }, [settings, loadSettings]);

  const loadWorkflow = async (first = false) => {
    setWorkflow({ status: 'loading', data: null, error: null });
    try {
      const data = await useProject.getState().loadWorkflow(repo.root);
      setWorkflow({ status: 'ready', data, error: null });
      if (data.steps.length) setSteps(data.steps.map((s) => ({ title: s.title, prompt: s.prompt, gates: s.gates, phase: s.phase })));
      // The repository's own workflow is what New task shows first.
      if (first && data.file && data.problems.length === 0) setSource('workflow');
      setStepsEdited(false);
      setTrusted(false);
    } catch (err) {
      setWorkflow({ status: 'error', data: null, error: errorMessage(err) });
    }
  };
  // Opening a repository reads its workflow file and what its files show, at once.
  useEffect(() => {
    void loadWorkflow(true);
    void useProject.getState().detect(repo.root);
  }, [repo.root]);

  const fileOk = Boolean(workflow.data?.file && workflow.data.problems.length === 0);
  // The form shows the file's environment when the repository has one, else detection's; the user's edits stay.
  useEffect(() => {
    if (envEdited || workflow.status === 'loading' || workflow.status === 'idle') return;
    const data = workflow.data;
    if (data && fileOk) {
      setEnv({
        setup: (data.setup?.run ?? []).join('\n'),
        network: (data.setup?.network ?? []).join(' '),
        copy: data.copy.join(' '),
        gates: Object.entries(data.gates).map(([name, command]) => ({ name, command })),
      });
    } else if (detection?.status === 'ready' && detection.data) {
      const d = detection.data;
      const gates = d.gates.map((g) => ({ name: g.name, command: g.run }));
      setEnv({
        setup: d.setup.map((x) => x.run).join('\n'),
        network: d.network.map((n) => n.entry).join(' '),
        copy: d.copy.map((c) => c.glob).join(' '),
        gates: gates.length ? gates : [{ name: 'test', command: '' }],
      });
    } else if (detection?.status === 'error') setEnv((e) => (e.gates.length ? e : { ...e, gates: [{ name: 'test', command: '' }] }));
  }, [envEdited, workflow.status, workflow.data, fileOk, detection?.status, detection?.data]);
  const useFileEnv = () => setEnvEdited(false);
  const revokeTrust = async () => {
    setTrustError(null);
    try {
      await useProject.getState().revokeTrust(repo.root);
      await loadWorkflow();
    } catch (err) {
      setTrustError(errorMessage(err));
    }
  };
  const draftPlan = async () => {
    setDraft({ status: 'loading', markdown: '', error: null, approved: false });
    try {
      const r = await useProject.getState().draftPlan(repo.root, title.trim(), description);
      setDraft({ status: 'ready', markdown: r.markdown, error: null, approved: false });
      setSteps(r.steps.map((s) => ({ title: s.title, prompt: s.prompt, gates: s.gates, phase: s.phase })));
    } catch (err) {
      setDraft({ status: 'error', markdown: '', error: errorMessage(err), approved: false });
    }
  };
  const chooseSource = (s: Source) => setSource(s);

  const specs = toStepSpecs(steps);
  const budgetNumber = budget.trim() === '' ? undefined : Number(budget);
  // Checked with the contract's own schema (runs.start's budgetUsd): any amount above 0, in dollars and cents or less.
  const budgetInvalid = budgetNumber !== undefined && !StartRunInput.shape.budgetUsd.safeParse(budgetNumber).success;
  const maxRetriesNumber = maxRetries.trim() === '' ? undefined : Number(maxRetries);
  const maxRetriesInvalid = maxRetriesNumber !== undefined && !(Number.isInteger(maxRetriesNumber) && maxRetriesNumber >= 0);
  const timeoutNumber = timeoutS.trim() === '' ? undefined : Number(timeoutS);
  const timeoutInvalid = timeoutNumber !== undefined && !(Number.isFinite(timeoutNumber) && timeoutNumber > 0);
  const retry: NonNullable<StartRunInput['retry']> = {
    ...(maxRetriesNumber !== undefined ? { maxRetries: maxRetriesNumber } : {}),
    ...(timeoutNumber !== undefined ? { timeoutSeconds: timeoutNumber } : {}),
    ...(retryOn.length ? { allowRetryOn: retryOn as NonNullable<NonNullable<StartRunInput['retry']>['allowRetryOn']> } : {}),
  };
  /** The run uses the repository's workflow file (its setup, gates, agent, sandbox…) unless the environment was edited here. */
  const useWorkflowFile = fileOk && !envEdited;
  /** …and its steps too, when the plan is the file's as it is. */
  const stepsFromFile = useWorkflowFile && source === 'workflow' && !stepsEdited && (workflow.data?.steps.length ?? 0) > 0;
  const needsTrust = Boolean(useWorkflowFile && workflow.data?.trust && !workflow.data.trust.trusted && !trusted);
  const setupLines = lines(env.setup);
  const appEnv = {
    gates: gatesRecord(env.gates),
    ...(setupLines.length ? { setup: { run: setupLines, network: words(env.network) } } : {}),
    ...(words(env.copy).length ? { copy: words(env.copy) } : {}),
  };
  const baselineInput: BaselineInput = useWorkflowFile
    ? { repo: repo.root, workflowFile: workflow.data!.file!, ...(trusted ? { trust: true } : {}) }
    : { repo: repo.root, ...appEnv };
  const checkBlocked = needsTrust
    ? 'Trust the workflow file first: checking runs its commands.'
    : !useWorkflowFile && Object.keys(appEnv.gates).length === 0 && !setupLines.length
      ? 'Write a gate (the command that runs the tests) to check the project.'
      : null;
  // Checked with other settings, or on another commit than the one a run would start from.
  const baselineStale = baseline?.status === 'done' && (baseline.checked !== baselineKey(baselineInput) || baseline.result?.commit !== repo.headCommit);
  // Said before the form is filled in, not after Start: the Anthropic agent cannot run a step without a key.
  const noKey = Boolean(settings && !settings.apiKeySet && agent === 'anthropic');
  const blockers = [
    !title.trim() && 'a title',
    specs.length === 0 && !stepsFromFile && 'at least one step with a title',
    source === 'draft' && !draft.approved && 'approving the drafted plan',
    budgetInvalid && 'a budget above zero',
    maxRetriesInvalid && 'max retries as a whole number',
    timeoutInvalid && 'an agent timeout above zero',
    needsTrust && 'trusting the workflow file',
    noKey && !useWorkflowFile && 'an API key (or Claude Code as the agent)',
  ].filter(Boolean) as string[];

  const start = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const input: StartRunInput = {
        repo: repo.root,
        title: title.trim(),
        description,
        // The file's content as shown here (its hash): a file changed since is refused, not run.
        ...(useWorkflowFile
          ? {
              workflowFile: workflow.data!.file!,
              ...(workflow.data!.trust ? { trustSha256: workflow.data!.trust.sha256 } : {}),
              ...(trusted ? { trust: true } : {}),
              ...(stepsFromFile ? {} : { steps: specs }),
            }
          : { steps: specs, ...appEnv }),
        ...(preset ? { preset } : {}),
        ...(budgetNumber !== undefined ? { budgetUsd: budgetNumber } : {}),
        ...(Object.keys(retry).length ? { retry } : {}),
        ...(agent !== 'anthropic' && !useWorkflowFile ? { agent } : {}),
      };
      const runId = await useRuns.getState().start(input);
      navigate(hrefs.run(runId));
    } catch (err) {
      setStartError(errorMessage(err));
      setStarting(false);
    }
  };

  const trustBox =
    useWorkflowFile && workflow.data?.trust ? (
      workflow.data.trust.trusted ? (
        <div className="trust-box" role="region" aria-label="workflow trust">
          <strong>You trust this workflow file as it is</strong>
          <p className="small-text">
            It runs its commands without asking; a change to the file asks again. Revoking makes it ask again now, retries and resumes of its runs included.
          </p>
          <button type="button" onClick={() => void revokeTrust()}>
            Revoke trust
          </button>
          <InlineError message={trustError} />
        </div>
      ) : (
        <div className={trusted ? 'trust-box' : 'warning-box trust'} role="region" aria-label="workflow trust">
          <strong>{trusted ? 'You trust this workflow file' : 'Do you trust this workflow file?'}</strong>
          <p className="small-text">
            It comes from the repository (new, or changed since you last trusted it). Checking the project or starting the run will run these commands on your
            machine and allow the repository&apos;s code what is listed here:
          </p>
          <ul>
            {workflow.data.trust.commands.map((c) => (
              <li key={`${c.source}:${c.command}`}>
                <span className="muted">{c.source}</span> <code>{c.command}</code>
                {c.warning && <div className="trust-warning">⚠ {c.warning}</div>}
              </li>
            ))}
          </ul>
          {!trusted && (
            <button type="button" onClick={() => setTrusted(true)}>
              Trust
            </button>
          )}
        </div>
      )
    ) : null;

  return (
    // Starting a run spends money: only the Start run button starts one. Enter in a field (the form's implicit submission) does nothing.
    <form className="screen new-task" noValidate onSubmit={(e) => e.preventDefault()}>
      <header className="screen-header">
        <div>
          <h1>New task</h1>
          <p className="muted">
            <strong>{repo.name}</strong> · <code>{repo.root}</code> · {repo.branch ?? 'detached HEAD'} @ <code>{repo.headCommit.slice(0, 8)}</code>
          </p>
        </div>
      </header>

      {noKey && <NoKeyNotice onUseClaudeCode={() => setAgent('claude-code')} />}

      <div className="form-grid">
        <label className="field">
          Title
          <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Add health to Player" required />
        </label>
        <label className="field">
          Description
          <textarea
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            placeholder="What should be true when the task is done? The agent reads this as untrusted text."
          />
        </label>
        <label className="field">
          Agent
          <select aria-label="Agent" value={agent} onChange={(e) => setAgent(e.target.value as AgentChoice)}>
            <option value="anthropic">Claude through the Anthropic API (needs an API key)</option>
            <option value="claude-code">Claude Code (the claude CLI, with its own login)</option>
          </select>
          {agent === 'claude-code' && (
            <span className="muted small-text">
              Runs <code>claude -p</code> in the worktree: it must be installed; with the sandbox on, it signs in with <code>CLAUDE_CODE_OAUTH_TOKEN</code>{' '}
              (from <code>claude setup-token</code>) in Ratchet’s environment. A workflow file run as it is uses its own agent.
            </span>
          )}
        </label>
      </div>

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
            onClick={() => chooseSource(value)}
          >
            {label}
          </button>
        ))}
      </div>

      {source === 'workflow' && (
        <div className="source-panel">
          {workflow.status === 'loading' && <Loading label="Reading ratchet.yml…" />}
          {workflow.status === 'error' && <ErrorState message={workflow.error ?? ''} onRetry={() => void loadWorkflow()} />}
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
      )}
      {source === 'draft' && (
        <div className="source-panel">
          <button type="button" onClick={() => void draftPlan()} disabled={!title.trim() || draft.status === 'loading'}>
            {draft.status === 'ready' ? 'Draft again' : 'Draft a plan'}
          </button>
          {!title.trim() && <span className="muted small-text"> Give the task a title first.</span>}
          {draft.status === 'loading' && <Loading label="The agent is reading the repository and drafting a plan…" />}
          <InlineError message={draft.error} />
          {draft.status === 'ready' && (
            <>
              <label className="field">
                Drafted plan (Markdown, yours to edit and keep as notes)
                <textarea
                  className="mono"
                  rows={8}
                  value={draft.markdown}
                  onChange={(e) => setDraft({ ...draft, markdown: e.target.value, approved: false })}
                />
              </label>
              <label className="check">
                <input type="checkbox" checked={draft.approved} onChange={(e) => setDraft({ ...draft, approved: e.target.checked })} /> I have read the plan and
                approve these steps
              </label>
            </>
          )}
        </div>
      )}

      {(source !== 'draft' || draft.status === 'ready') && (
        <PlanEditor
          steps={steps}
          onChange={(s) => {
            setSteps(s);
            setStepsEdited(true);
            if (source === 'draft') setDraft((d) => ({ ...d, approved: false }));
          }}
        />
      )}
      <ProjectSection
        origin={
          fileOk && workflow.data?.file
            ? { kind: 'file', file: workflow.data.file, edited: envEdited }
            : workflow.status === 'loading' || workflow.status === 'idle' || detection?.status === 'loading'
              ? { kind: 'loading' }
              : { kind: 'detected' }
        }
        detection={detection}
        env={env}
        onChange={(e) => {
          setEnv(e);
          setEnvEdited(true);
        }}
        onUseFile={useFileEnv}
        trust={trustBox}
        baseline={baseline}
        baselineStale={baselineStale}
        checkBlocked={checkBlocked}
        onCheck={() => void useProject.getState().check(baselineInput, setupLines)}
      />

      <fieldset className="inline-fields">
        <legend>Retries and budget</legend>
        <label className="field-inline">
          Retry preset
          <select value={preset ?? ''} onChange={(e) => setPreset((e.target.value || null) as Preset | null)}>
            <option value="">Default ({settings?.preset ?? 'from settings'})</option>
            <option value="conservative">conservative</option>
            <option value="aggressive">aggressive</option>
            <option value="minimal">minimal</option>
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
            onChange={(e) => setBudget(e.target.value)}
            placeholder={settings?.budget.taskUsd ? String(settings.budget.taskUsd) : 'none'}
            aria-invalid={budgetInvalid}
            aria-describedby={budgetInvalid ? 'err-task-budget' : undefined}
          />
          {budgetInvalid && (
            <span id="err-task-budget" className="field-error">
              The budget must be more than $0 (leave it empty for the workflow’s or Settings’ budget).
            </span>
          )}
        </label>
        <label className="field-inline">
          Max retries
          <input
            type="number"
            min="0"
            step="1"
            inputMode="numeric"
            value={maxRetries}
            onChange={(e) => setMaxRetries(e.target.value)}
            placeholder="workflow's"
            aria-invalid={maxRetriesInvalid}
          />
        </label>
        <label className="field-inline">
          Agent timeout (s)
          <input
            type="number"
            min="1"
            step="1"
            inputMode="numeric"
            value={timeoutS}
            onChange={(e) => setTimeoutS(e.target.value)}
            placeholder="workflow's"
            aria-invalid={timeoutInvalid}
          />
        </label>
        <span className="field-inline retry-on" role="group" aria-label="retry only on">
          Retry only on
          {RETRY_CLASSES.map((c) => (
            <label key={c} className="check">
              <input
                type="checkbox"
                checked={retryOn.includes(c)}
                onChange={(e) => setRetryOn(e.target.checked ? [...retryOn, c] : retryOn.filter((x) => x !== c))}
              />{' '}
              {c}
            </label>
          ))}
          {retryOn.length === 0 && <span className="muted small-text"> (none ticked: every retriable class)</span>}
        </span>
      </fieldset>

      <footer className="form-footer">
        {blockers.length > 0 && <span className="muted small-text">Needs {blockers.join(', ')}.</span>}
        <InlineError message={startError} />
        <button
          type="button"
          className="primary"
          disabled={blockers.length > 0 || starting}
          onClick={() => {
            if (blockers.length === 0) void start();
          }}
        >
          {starting ? 'Starting…' : 'Start run'}
        </button>
      </footer>
    </form>
  );
}
