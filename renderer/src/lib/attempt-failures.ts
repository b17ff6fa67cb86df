// The failing tests of one attempt, as a person reads them: once each, flaky ones (failed, then passed on the flaky re-run) apart, paths relative to the repository.
import type { AttemptDetail } from '../../../shared/contract';

type Gate = AttemptDetail['gates'][number];
export type Failure = Gate['failures'][number];

/** The labels the engine gives a gate's second run (attempt-gates.ts): the flaky re-run and the re-run after a crash. */
const RERUN = / \((flaky check|re-run after crash)\)$/;

/** A path inside the worktree, relative to it ("test/mul.test.mjs:5"); other paths as they are. */
export function relativeTo(worktree: string | null | undefined, file: string | null): string | null {
  if (!file || !worktree) return file;
  const root = worktree.replace(/\/+$/, '');
  const plain = file.replace(/^file:\/\//, '');
  return plain.startsWith(`${root}/`) ? plain.slice(root.length + 1) : file;
}

/** Every mention of a path inside the worktree, in a sentence or a test's name, made relative to it. */
export function relativeIn(worktree: string | null | undefined, text: string): string {
  if (!worktree) return text;
  const root = worktree.replace(/\/+$/, '');
  return text.split(`file://${root}/`).join('').split(`${root}/`).join('');
}

/** What a line that says why something failed looks like: an error's name, a module or file not found. */
const ERROR_LINE = /\b(?:[A-Z][A-Za-z]*Error|Error|error(?:\[\w-]+)?)\b[:\s]|Cannot find|No module named|not found|does not exist|is not defined/;

/**
 * The line of a gate's output that says why a failure with neither expected nor got failed (a test file that cannot
 * load: "Error: Cannot find module '../src/slug.mjs'"): the first error line after the failure's name, else the first
 * one; null when the output has none.
 */
export function errorLineFor(output: string, name: string): string | null {
  const lines = output.split('\n');
  const from = Math.max(
    0,
    lines.findIndex((l) => name && l.includes(name)),
  );
  const pick = (ls: string[]) => ls.find((l) => ERROR_LINE.test(l) && !/^\s*at\s/.test(l));
  const found = pick(lines.slice(from)) ?? pick(lines);
  return found
    ? found
        .trim()
        .replace(/^[✖×✗\s-]+/, '')
        .slice(0, 300)
    : null;
}

const identity = (f: Failure) => `${f.name}\u0000${f.file ?? ''}\u0000${f.line ?? ''}`;

/**
 * Splits an attempt's gate results into the tests that failed and the flaky ones. A gate's re-run replaces its first
 * run: when the flaky re-run passed, the first run's failures were flaky; when it failed too, they are the same
 * failures, counted once.
 */
export function attemptFailures(gates: readonly Gate[], worktree?: string | null): { failing: Failure[]; flaky: Failure[] } {
  const lastRun = new Map<string, Gate>();
  const firstRun = new Map<string, Gate>();
  for (const g of gates) {
    const base = g.gate.replace(RERUN, '');
    if (!firstRun.has(base)) firstRun.set(base, g);
    lastRun.set(base, g);
  }
  const failing: Failure[] = [];
  const flaky: Failure[] = [];
  const seen = new Set<string>();
  const add = (into: Failure[], fs: readonly Failure[], output: string) => {
    for (const raw of fs) {
      // Nothing to compare (a test file that did not load): the output's error line says why, not two empty pills.
      const f = raw.expected === null && raw.actual === null && !raw.message ? { ...raw, message: errorLineFor(output, raw.name) } : raw;
      const rel = {
        ...f,
        file: relativeTo(worktree, f.file),
        name: relativeIn(worktree, f.name),
        message: f.message === null ? null : relativeIn(worktree, f.message),
      };
      const id = identity(rel);
      if (seen.has(id)) continue;
      seen.add(id);
      into.push(rel);
    }
  };
  for (const [base, last] of lastRun) {
    const first = firstRun.get(base)!;
    if (last.passed && last !== first) add(flaky, first.failures, first.output);
    else if (last.failures.length) add(failing, last.failures, last.output);
    else add(failing, first.failures, first.output);
  }
  return { failing, flaky };
}

/**
 * How many of an attempt's gates passed, each gate counted once as its last run ended (a flaky re-run or a re-run after
 * a crash is not a gate of its own); `flaky`: gates that failed, then passed when run again on the same code.
 */
export function gateTally(gates: readonly Gate[]): { passed: number; total: number; flaky: string[] } {
  const runs = new Map<string, Gate[]>();
  for (const g of gates) {
    const base = g.gate.replace(RERUN, '');
    runs.set(base, [...(runs.get(base) ?? []), g]);
  }
  let passed = 0;
  const flaky: string[] = [];
  for (const [base, all] of runs) {
    const last = all.at(-1)!;
    if (last.passed) passed++;
    if (last.passed && all.length > 1 && / \(flaky check\)$/.test(last.gate) && !all[0]!.passed) flaky.push(base);
  }
  return { passed, total: runs.size, flaky };
}
