// The contract's project methods: the repository's own workflow file, what detection proposes, and the baseline check ("Check project").
import type { EventName, Handlers } from '../../../shared/contract';
import type { BaselineDoc } from '../../../shared/worktree-env';
import { appEnvironment, CHECK_STEP } from './app-workflow';
import type { Engine } from '../engine';
import { RatchetError } from '../errors';
import { inspectRepo } from '../git/repo-git';
import { detectProject } from '../project/detect-project';
import { findWorkflowFile, loadWorkflowSource, readWorkflowSource } from '../workflow/load-workflow';
import { WorkflowFile, type Workflow } from '../workflow/schema';
import type { BaselineCheckOptions } from '../worktree-env/baseline';

type ProjectHandlers = Pick<Handlers, 'workflow.load' | 'project.detect' | 'project.baseline'>;
export type BaselineFn = (opts: Omit<BaselineCheckOptions, 'sandbox' | 'env'>) => Promise<BaselineDoc>;

export function projectHandlers(engine: Engine, deps: { baseline: BaselineFn; emit: (event: EventName, payload: unknown) => void }): ProjectHandlers {
  return {
    'workflow.load': async ({ repo }) => {
      const info = await inspectRepo(repo);
      const file = findWorkflowFile(info.root);
      const none = { steps: [], gates: {}, setup: null, copy: [], trust: null };
      if (!file) return { file: null, problems: [], ...none };
      // Read once: the steps shown, what the trust prompt lists and the hash runs.start is bound to are one content.
      const { sha256, parsed } = readWorkflowSource(file);
      if (!parsed.ok) return { file, problems: parsed.problems.map((p) => `${p.line ? `line ${p.line}: ` : ''}${p.path}: ${p.message}`), ...none };
      const w = parsed.workflow;
      return {
        file,
        steps: w.steps,
        gates: Object.fromEntries(Object.entries(w.gates).map(([k, g]) => [k, g.run])),
        problems: [],
        setup: w.setup ? { run: typeof w.setup.run === 'string' ? [w.setup.run] : w.setup.run, network: w.setup.network } : null,
        copy: w.copy ?? [],
        trust: engine.workflowTrust(info.root, { file, sha256, workflow: w }),
      };
    },
    'project.detect': async ({ repo }) => detectProject((await inspectRepo(repo)).root),
    'project.baseline': async ({ repo, workflowFile, trust, ...env }) => {
      const info = await inspectRepo(repo);
      let workflow: Workflow;
      if (workflowFile !== undefined) {
        if (env.gates || env.setup || env.copy)
          throw new RatchetError('bad_arguments', 'Check either the workflow file or the gates, setup and files written in New task, not both.');
        // Read once: the content whose trust is checked is the content the check runs.
        const source = loadWorkflowSource(workflowFile);
        workflow = source.workflow;
        // Its commands run on this machine: only once the user trusts the file (the Trust button), as a run would.
        if (!trust && !engine.workflowTrust(info.root, source).trusted) {
          throw new RatchetError(
            'workflow_untrusted',
            `${workflowFile} comes from the repository and is not trusted yet: read the commands it runs and press Trust first.`,
          );
        }
      } else {
        workflow = WorkflowFile.parse({ steps: [CHECK_STEP] });
        workflow = { ...workflow, ...appEnvironment(env) };
      }
      if (workflow.steps.length === 0) workflow = { ...workflow, steps: [CHECK_STEP] };
      return deps.baseline({
        repo: info.root,
        workflow,
        commit: info.headCommit,
        onProgress: (p) => {
          if (p.kind === 'setup.started')
            deps.emit('project.onBaseline', { repo: info.root, phase: 'setup', gate: null, state: 'started', ok: null, durationMs: null });
          else if (p.kind === 'setup.finished')
            deps.emit('project.onBaseline', { repo: info.root, phase: 'setup', gate: null, state: 'finished', ok: p.ok, durationMs: p.durationMs });
          else if (p.kind === 'gate.started')
            deps.emit('project.onBaseline', { repo: info.root, phase: 'gate', gate: p.gate, state: 'started', ok: null, durationMs: null });
          else if (p.kind === 'gate.finished')
            deps.emit('project.onBaseline', { repo: info.root, phase: 'gate', gate: p.gate, state: 'finished', ok: p.passed, durationMs: p.durationMs });
        },
      });
    },
  };
}
