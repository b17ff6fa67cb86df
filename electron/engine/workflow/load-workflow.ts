// Reads a workflow file (YAML), validates it, and reports every problem with its line number.
import { existsSync } from 'node:fs';
import path, { join } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { RatchetError } from '../errors';
import { readWorktreeFileSync } from '../fs/worktree-file';
import { checkEntries } from './retry-check';
import { workflowHash } from './workflow-hash';
import { uncoveredSteps } from './gate-coverage';
import { WorkflowFile, type Workflow } from './schema';

/** Where a repository keeps its own workflow file, in the order they are looked for. */
export const WORKFLOW_FILES = ['ratchet.yml', '.ratchet/workflow.yml'] as const;

/** The repository's own workflow file (the first of WORKFLOW_FILES that exists under `repoRoot`), or null. */
export function findWorkflowFile(repoRoot: string): string | null {
  return WORKFLOW_FILES.map((f) => join(repoRoot, f)).find((f) => existsSync(f)) ?? null;
}

export interface WorkflowProblem {
  line: number | null;
  path: string;
  message: string;
}

export type ParsedWorkflow =
  { ok: true; workflow: Workflow; lineOf: (path: readonly PropertyKey[]) => number | null } | { ok: false; problems: WorkflowProblem[] };

function pathText(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '') || '(top level)'
  );
}

/** Pure: parse and validate workflow text. */
export function parseWorkflow(text: string): ParsedWorkflow {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number | undefined): number | null => (offset === undefined ? null : lineCounter.linePos(offset).line);
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({ line: lineOf(e.pos[0]), path: '(yaml)', message: e.message.split('\n')[0] ?? e.message })),
    };
  }
  // A file of comments only (what `ratchet init` writes when it found nothing to run) sets nothing: read as `{}`, so the
  // problem said is the real one (no gate), not the file's shape.
  const data: unknown = doc.contents === null ? {} : doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, problems: [{ line: 1, path: '(top level)', message: 'a workflow is a YAML mapping with `gates` and `steps`' }] };
  }
  const nodeLine = (path: readonly PropertyKey[]): number | null => {
    // Walk up until a node with a position exists (a missing key points at its parent).
    for (let i = path.length; i >= 0; i--) {
      const node = doc.getIn(path.slice(0, i) as (string | number)[], true);
      if (isNode(node) && node.range) return lineOf(node.range[0]);
    }
    return null;
  };
  const result = WorkflowFile.safeParse(data);
  if (!result.success) {
    return {
      ok: false,
      problems: result.error.issues.map((issue) => {
        let message = issue.message;
        if (issue.code === 'unrecognized_keys') message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
        return { line: nodeLine(issue.path), path: pathText(issue.path), message };
      }),
    };
  }
  const workflow = result.data;
  const problems: WorkflowProblem[] = [];
  workflow.steps.forEach((step, i) => {
    // A test-first step proves its test fails by running its gates: with none, nothing could.
    const gates = step.gates ?? Object.keys(workflow.gates);
    if ((step.tdd ?? workflow.tdd) && gates.length === 0) {
      problems.push({
        line: nodeLine(['steps', i, step.tdd !== undefined ? 'tdd' : 'title']),
        path: step.tdd !== undefined ? `steps[${i}].tdd` : `steps[${i}]`,
        message: `step "${step.title}" is test first (tdd), which needs a gate that runs its tests; this step has none`,
      });
    }
    step.gates?.forEach((g, j) => {
      if (!(g in workflow.gates)) {
        const known = Object.keys(workflow.gates);
        problems.push({
          line: nodeLine(['steps', i, 'gates', j]),
          path: `steps[${i}].gates[${j}]`,
          message: `step "${step.title}" names gate \`${g}\`, which is not defined; known gates: ${known.length ? known.join(', ') : '(none)'}`,
        });
      }
    });
  });
  workflow.retry?.forEach((entry, i) => {
    const gate = entry.not?.slice('gate.'.length);
    if (gate !== undefined && !(gate in workflow.gates)) {
      problems.push({
        line: nodeLine(['retry', i, 'not']),
        path: `retry[${i}].not`,
        message: `retry entry ${i + 1} names gate \`${gate}\`, which is not defined`,
      });
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, workflow, lineOf: nodeLine };
}

export interface CheckReport {
  errors: WorkflowProblem[];
  warnings: WorkflowProblem[];
  workflow: Workflow | null;
}

/**
 * The dry run (`ratchet check`): schema problems, a step no gate checks (`ratchet run` refuses it without --no-gates,
 * so the file is called invalid here), then the safety validations of the retry list, each with its line.
 */
export function checkWorkflowText(text: string): CheckReport {
  const parsed = parseWorkflow(text);
  if (!parsed.ok) return { errors: parsed.problems, warnings: [], workflow: null };
  const w = parsed.workflow;
  const uncovered = uncoveredSteps(w).map((u) => {
    const path = u.step === null ? ['gates'] : w.steps[u.step]?.gates ? ['steps', u.step, 'gates'] : ['steps', u.step];
    return { line: parsed.lineOf(path), path: pathText(path), message: u.message };
  });
  const messages = checkEntries(w.retry ?? [], { testFailureRetries: w.limits?.test_failure ?? w.max_retries }).map((m) => ({
    level: m.level,
    problem: {
      line: parsed.lineOf(m.entry === null ? ['retry'] : ['retry', m.entry]),
      path: m.entry === null ? 'retry' : `retry[${m.entry}] (entry ${m.entry + 1})`,
      message: m.message,
    },
  }));
  return {
    errors: [...uncovered, ...messages.filter((m) => m.level === 'error').map((m) => m.problem)],
    warnings: messages.filter((m) => m.level === 'warning').map((m) => m.problem),
    workflow: parsed.workflow,
  };
}

export function formatProblems(file: string, problems: readonly WorkflowProblem[]): string {
  return problems.map((p) => `${file}${p.line ? `:${p.line}` : ''}: ${p.path}: ${p.message}`).join('\n');
}

/**
 * A workflow file read once: the bytes hashed are the bytes parsed. Workspace trust binds to that hash, so what the
 * user is shown, what is stored as trusted and what runs are one content — never a later read of a file that may
 * have changed in between.
 */
export interface WorkflowSource {
  file: string;
  sha256: string;
  parsed: ParsedWorkflow;
}

/** A workflow file is a few kilobytes; one past this is refused rather than read in part. */
export const MAX_WORKFLOW_BYTES = 4 * 1024 * 1024;

/** The workflow file's bytes, read as every file from a repository is (readWorktreeFile): a regular file, never a FIFO or a device, bounded. */
export function readWorkflowBytes(file: string): Buffer | null {
  const r = readWorktreeFileSync('/', path.resolve(file), { maxBytes: MAX_WORKFLOW_BYTES });
  if (r.ok && !r.truncated) return r.bytes;
  if (!r.ok && r.kind === 'absent') return null;
  throw new RatchetError(
    'workflow_invalid',
    `Workflow file ${file} cannot be read: ${r.ok ? `it is larger than ${MAX_WORKFLOW_BYTES / 1024 / 1024} MB` : r.message}.`,
  );
}

export function readWorkflowSource(file: string): WorkflowSource {
  const bytes = readWorkflowBytes(file);
  if (!bytes) {
    throw new RatchetError('workflow_missing', `Workflow file ${file} does not exist. Pass --workflow <file>, or add ratchet.yml to the repository.`);
  }
  return { file, sha256: workflowHash(bytes), parsed: parseWorkflow(bytes.toString('utf8')) };
}

/** A workflow file read once and valid: its workflow and the hash of the very bytes it was parsed from. */
export interface LoadedWorkflow {
  file: string;
  sha256: string;
  workflow: Workflow;
}

/** Reads (once) and validates a workflow file; throws a RatchetError whose message lists every problem with its line. */
export function loadWorkflowSource(file: string): LoadedWorkflow {
  const { sha256, parsed } = readWorkflowSource(file);
  if (!parsed.ok) {
    throw new RatchetError('workflow_invalid', `The workflow file is not valid:\n${formatProblems(file, parsed.problems)}\nFix these lines and run again.`);
  }
  return { file, sha256, workflow: parsed.workflow };
}

/** Reads and validates a workflow file; throws a RatchetError whose message lists every problem with its line. */
export function loadWorkflowFile(file: string): Workflow {
  return loadWorkflowSource(file).workflow;
}
