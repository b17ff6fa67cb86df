// New task: title and description, a plan (written, loaded from the repo's workflow, or drafted and approved), the project's setup and gates (the repo's workflow file, else detected) with "Check project", preset, budget, this task's retry configuration.
import { useEffect, useState } from 'react';
import type { AgentChoice, IssueTaskDoc, MethodOutput, StartRunInput } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { hrefs, navigate } from '../lib/route';
import { useRuns } from '../stores/runs';
import { useSettings } from '../stores/settings';
import { emptyGates, gatesRecord } from '../components/GatesEditor';
import { PlanEditor, toStepSpecs, type EditableStep } from '../components/PlanEditor';
import { EstimatePanel, stepShares, useEstimate } from './NewTaskEstimate';
import { ErrorState, InlineError, Loading } from '../components/States';
import { NoKeyNotice } from '../components/NoKeyNotice';
import { baselineKey, useProject, type BaselineInput } from '../stores/project';
import { ChooseRepo } from './NewTaskChooseRepo';
import { DraftPanel, PlanSourceTabs, WorkflowPanel, type DraftState, type Source, type WorkflowState } from './NewTaskPlanSource';
import { lines, ProjectSection, words, type EnvForm } from './NewTaskProject';
import { parseRetryForm, RetriesFieldset, type RetryForm } from './NewTaskRetries';
import { TrustBox } from './NewTaskTrust';
import { TeamChoice, useTeamSet } from './NewTaskTeam';
import { NewTaskIssue } from './NewTaskIssue';

type RepoInfo = MethodOutput<'repos.inspect'>;

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

function TaskForm({ repo }: { repo: RepoInfo }) {
  const settings = useSettings((s) => s.settings);
  const loadSettings = useSettings((s) => s.load);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [issue, setIssue] = useState<IssueTaskDoc | null>(null);
  const [source, setSource] = useState<Source>('hand');
  const [steps, setSteps] = useState<EditableStep[]>([{ title: '', prompt: '' }]);
  /** Setup, files to copy and gates: the repository's workflow file's, else detected; never a guess (no `npm test` without package.json). */
  const [env, setEnv] = useState<EnvForm>({ setup: '', network: '', copy: '', gates: [] });
  /** The user changed the environment: the run uses theirs, not the file's or detection's. */
  const [envEdited, setEnvEdited] = useState(false);
  /** The user’s explicit yes to a run that no gate checks (the CLI’s --no-gates). */
  const [runUnchecked, setRunUnchecked] = useState(false);
  /** Retry preset, budget, max retries, agent timeout and the classes a retry is allowed on, as typed. */
  const [retryForm, setRetryForm] = useState<RetryForm>({ preset: null, budget: '', maxRetries: '', timeoutS: '', retryOn: [] });
  const [workflow, setWorkflow] = useState<WorkflowState>({ status: 'idle', data: null, error: null });
  const [draft, setDraft] = useState<DraftState>({ status: 'idle', markdown: '', error: null, approved: false });
  /** The user changed the loaded workflow's steps: run theirs (with the file's settings). */
  const [stepsEdited, setStepsEdited] = useState(false);
  /** The user pressed Trust for the repository's workflow file (stored by the engine when the run starts). */
  const [trusted, setTrusted] = useState(false);
  const [trustError, setTrustError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const teamSet = useTeamSet();
  const [teamChosen, setTeamChosen] = useState(false);
  const onTeam = teamSet && teamChosen;
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

  const specs = toStepSpecs(steps);
  const { budgetNumber, retry, invalid } = parseRetryForm(retryForm);
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
  const noKey = Boolean(settings && !settings.apiKeySet && agent === 'anthropic' && !onTeam);
  // A success means a check ran: an empty gate is refused at its field, and no gate at all needs the user's explicit "Run without checks".
  const emptyGateNames = useWorkflowFile ? [] : emptyGates(env.gates);
  const noChecks = useWorkflowFile ? Object.keys(workflow.data?.gates ?? {}).length === 0 : env.gates.length === 0;
  const blockers = [
    !title.trim() && 'a title',
    specs.length === 0 && !stepsFromFile && 'at least one step with a title',
    source === 'draft' && !draft.approved && 'approving the drafted plan',
    invalid.budget && 'a budget above zero',
    invalid.maxRetries && 'max retries as a whole number',
    invalid.timeout && 'an agent timeout above zero',
    needsTrust && 'trusting the workflow file',
    noKey && !useWorkflowFile && 'an API key (or Claude Code as the agent)',
    emptyGateNames.length > 0 && `a command for gate ${emptyGateNames.map((g) => `"${g}"`).join(', ')}`,
    noChecks && !runUnchecked && 'a gate, or "Run without checks"',
  ].filter(Boolean) as string[];

  const runInput = (): StartRunInput => ({
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
    ...(retryForm.preset ? { preset: retryForm.preset } : {}),
    ...(budgetNumber !== undefined ? { budgetUsd: budgetNumber } : {}),
    ...(Object.keys(retry).length ? { retry } : {}),
    ...(agent !== 'anthropic' && !useWorkflowFile ? { agent } : {}),
    ...(onTeam ? { team: true } : {}),
    ...(noChecks && runUnchecked ? { noGates: true } : {}),
    ...(issue ? { issue: issue.url } : {}),
  });
  // Estimated as soon as there is a task with a plan (trust is not needed: nothing runs).
  const estimateInput = title.trim() && (specs.length > 0 || stepsFromFile) && !invalid.budget && !invalid.maxRetries && !invalid.timeout ? runInput() : null;
  const estimate = useEstimate(estimateInput);

  const start = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const runId = await useRuns.getState().start(runInput());
      navigate(onTeam ? hrefs.teamRun(runId) : hrefs.run(runId));
    } catch (err) {
      setStartError(errorMessage(err));
      setStarting(false);
    }
  };
  const trustBox =
    useWorkflowFile && workflow.data?.trust ? (
      <TrustBox trust={workflow.data.trust} trusted={trusted} onTrust={() => setTrusted(true)} onRevoke={() => void revokeTrust()} revokeError={trustError} />
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
        <NewTaskIssue
          repo={repo.root}
          issue={issue}
          onIssue={(i) => {
            setIssue(i);
            if (i) {
              setTitle(i.title);
              setDescription(i.description);
            }
          }}
        />
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
            {/* Said only when known to be so: not while the settings load, not with a key set (issue 34 item 8). */}
            <option value="anthropic">Claude through the Anthropic API{settings && !settings.apiKeySet ? ' (needs an API key)' : ''}</option>
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

      <PlanSourceTabs source={source} onChoose={setSource} />
      {source === 'workflow' && <WorkflowPanel workflow={workflow} stepsEdited={stepsEdited} onRetry={() => void loadWorkflow()} />}
      {source === 'draft' && <DraftPanel title={title} draft={draft} onDraft={() => void draftPlan()} onChange={setDraft} />}

      {(source !== 'draft' || draft.status === 'ready') && (
        <PlanEditor
          steps={steps}
          // A drafted plan lists each step's share of the estimate (from the same answer as the line under the plan).
          estimates={
            source === 'draft'
              ? stepShares(
                  estimate.fresh ? estimate.value : null,
                  steps.map((s) => s.title),
                )
              : undefined
          }
          onChange={(s) => {
            setSteps(s);
            setStepsEdited(true);
            if (source === 'draft') setDraft((d) => ({ ...d, approved: false }));
          }}
        />
      )}
      <EstimatePanel
        estimate={estimate}
        budgetUsd={budgetNumber ?? settings?.budget.taskUsd ?? null}
        onSetBudget={(usd) => setRetryForm((f) => ({ ...f, budget: String(usd) }))}
      />
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

      <RetriesFieldset
        form={retryForm}
        onChange={setRetryForm}
        defaults={{ preset: settings?.preset, budgetUsd: settings?.budget.taskUsd }}
        invalid={invalid}
      />

      {teamSet && <TeamChoice checked={teamChosen} onChange={setTeamChosen} />}

      {noChecks && (
        <p className="warning-box small-text" role="group" aria-label="no gate">
          No gate: nothing would test this work, so the run could succeed with the agent’s word alone. Add a gate above, or{' '}
          <label>
            <input type="checkbox" checked={runUnchecked} onChange={(e) => setRunUnchecked(e.target.checked)} /> Run without checks (the run is marked
            “unchecked”)
          </label>
        </p>
      )}

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
          {starting ? 'Starting…' : onTeam ? 'Submit to the team' : 'Start run'}
        </button>
      </footer>
    </form>
  );
}
