// What a team run carries through the database from whoever submitted it to the workers: the task, the workflow, the
// commit it starts from, and — when the workflow is the repository's own file — the hash its submitter trusted, which
// a worker checks against the file at that commit before it runs anything (trust travels with the run; the key and
// the git credentials never do: each worker uses its own).
import { relative } from 'node:path';
import { z } from 'zod';
import { RatchetError } from '../errors';
import { git } from '../git/repo-git';
import type { PreparedRun } from '../lifecycle/run-options';
import { workflowHash } from '../workflow/workflow-hash';
import { WorkflowFile, type Workflow } from '../workflow/schema';
import { workerRefusal, type WorkerAllowances } from './team-allow';

/** Ratchet's priority (-100 … 100, higher first) as DBOS's (0 first): 100 - p. */
export function dbosPriority(p: number): number {
  return 100 - Math.max(-100, Math.min(100, Math.round(p)));
}

export const TeamRunSpec = z.object({
  v: z.literal(1),
  runId: z.string().regex(/^[0-9a-z]{9,}$/),
  remote: z.string().min(1),
  repoName: z.string(),
  baseBranch: z.string().nullable(),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  title: z.string(),
  description: z.string(),
  workflow: z.unknown(),
  /** The repository's own workflow file (its path in the repository) and the hash of the content its submitter trusted. */
  trusted: z.object({ file: z.string(), sha256: z.string() }).nullable(),
  submittedBy: z.string(),
  taskBudgetUsd: z.number().nullable(),
});
export type TeamRunSpec = z.infer<typeof TeamRunSpec>;

/** The spec of a prepared run (the submitter's side, after its own trust check). */
export function specOf(p: PreparedRun, o: { runId: string; remote: string; submittedBy: string; taskBudgetUsd?: number | null }): TeamRunSpec {
  return {
    v: 1,
    runId: o.runId,
    remote: o.remote,
    repoName: p.repoName,
    baseBranch: p.baseBranch,
    baseCommit: p.headCommit,
    title: p.title,
    description: p.description,
    workflow: p.workflow,
    trusted: p.trustedWorkflow ? { file: relative(p.repoRoot, p.trustedWorkflow.file), sha256: p.trustedWorkflow.sha256 } : null,
    submittedBy: o.submittedBy,
    taskBudgetUsd: o.taskBudgetUsd ?? null,
  };
}

/**
 * The worker's check before it runs a spec: the workflow parses, asks for nothing its operator has not allowed
 * (team-allow.ts; `workflow_refused` otherwise), and a repository workflow file is, at the commit the run starts from,
 * the very content its submitter trusted. Returns the workflow; throws `workflow_untrusted` otherwise.
 */
export async function checkSpec(raw: unknown, clone: string, allow: WorkerAllowances): Promise<{ spec: TeamRunSpec; workflow: Workflow }> {
  const parsed = TeamRunSpec.safeParse(raw);
  if (!parsed.success)
    throw new RatchetError('bad_arguments', `This team run's description is not one this worker reads: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  const spec = parsed.data;
  const wf = WorkflowFile.safeParse(spec.workflow);
  if (!wf.success) throw new RatchetError('workflow_invalid', `This team run's workflow is not valid here: ${wf.error.issues[0]?.message ?? 'invalid'}.`);
  const refused = workerRefusal(wf.data, allow);
  if (refused) throw new RatchetError('workflow_refused', refused);
  if (spec.trusted) {
    const file = spec.trusted.file;
    if (file.startsWith('..') || file.startsWith('/'))
      throw new RatchetError('workflow_untrusted', `The run names a workflow file outside its repository (${file}).`);
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await git(clone).raw(['show', `${spec.baseCommit}:${file}`]), 'utf8');
    } catch {
      throw new RatchetError(
        'workflow_untrusted',
        `The workflow file ${file} is not in commit ${spec.baseCommit.slice(0, 10)}: this worker will not run what its submitter did not see.`,
      );
    }
    const sha = workflowHash(bytes);
    if (sha !== spec.trusted.sha256)
      throw new RatchetError(
        'workflow_untrusted',
        `The workflow file ${file} at ${spec.baseCommit.slice(0, 10)} is not the version ${spec.submittedBy} trusted (hash ${sha.slice(0, 12)}, trusted ${spec.trusted.sha256.slice(0, 12)}): this worker refuses to run it.`,
      );
  }
  return { spec, workflow: wf.data };
}
