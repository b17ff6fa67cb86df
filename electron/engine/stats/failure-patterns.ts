// The failure-pattern advice ("3 tasks repeatedly failed on null references → consider adding null checks"): the period's unfixed failures grouped by what they share (pure).
import { FALLBACK_HINT, MISMATCH_HINT, NULL_REFERENCE_HINT, SIGNAL_HINT, TEST_TIMEOUT_HINT, seedAnalysis } from '../failures/classify';
import type { Improvement } from './improvements';

/** The last failure of a step that was never fixed: what it said, its failing tests (identities) and the files they point at. */
export interface UnfixedFailure {
  runId: string;
  message: string;
  tests: string[];
  files: string[];
}

/** The failure analysis patterns (the classifier's own), as a finding and its advice. */
const PATTERN: Record<string, { what: string; advice: string }> = {
  [NULL_REFERENCE_HINT]: {
    what: 'null references',
    advice: 'consider adding null checks (initialise objects before use, guard values that may be missing) and say so in the step prompts',
  },
  [SIGNAL_HINT]: {
    what: 'signals not emitted or not connected',
    advice: 'consider saying in the step prompts which signals must be declared, emitted and connected',
  },
  [MISMATCH_HINT]: {
    what: 'wrong values (expected one value, got another)',
    advice: 'consider giving the steps the expected values and how they are computed',
  },
  [TEST_TIMEOUT_HINT]: { what: 'tests that timed out', advice: 'consider looking for loops or waits on events that never come, or raise the gate timeout' },
};

/** Tasks (distinct runs) that must share something before it is a pattern. */
const MIN_TASKS = 2;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A message with its changing values taken out (numbers, quoted text), so `got -1` and `got -2` read as one. */
export function messageShape(message: string): string {
  return message
    .replace(/(["'`]).*?\1/g, '…')
    .replace(/-?\d+(?:\.\d+)?/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
}

function groups<K>(rows: readonly UnfixedFailure[], keysOf: (f: UnfixedFailure) => readonly K[]): Array<{ key: K; runs: Set<string>; example: string }> {
  const by = new Map<K, { key: K; runs: Set<string>; example: string }>();
  for (const f of rows) {
    for (const key of new Set(keysOf(f))) {
      const g = by.get(key) ?? { key, runs: new Set<string>(), example: f.message };
      g.runs.add(f.runId);
      by.set(key, g);
    }
  }
  return [...by.values()].filter((g) => g.runs.size >= MIN_TASKS).sort((a, b) => b.runs.size - a.runs.size);
}

/**
 * The patterns several tasks' unfixed failures share, most tasks first: one of the failure analysis patterns (null
 * references, signals, wrong values, timeouts), else the same message once its values are taken out; the same failing
 * test; the same file. Each is said once, with what to do about it.
 */
export function failurePatterns(rows: readonly UnfixedFailure[]): Improvement[] {
  const out: Improvement[] = [];
  const analysed = rows.map((f) => ({ f, hints: seedAnalysis(f.message).filter((h) => h !== FALLBACK_HINT && PATTERN[h]) }));
  for (const g of groups(
    analysed.map((a) => a.f),
    (f) => analysed.find((a) => a.f === f)!.hints,
  )) {
    const p = PATTERN[g.key]!;
    out.push({
      finding: `${plural(g.runs.size, 'task')} repeatedly failed on ${p.what} (e.g. ${g.example.slice(0, 120)})`,
      action: p.advice,
      errorClass: null,
    });
  }
  // Messages no analysis pattern covers: the same shape across tasks.
  const plain = analysed.filter((a) => a.hints.length === 0).map((a) => a.f);
  for (const g of groups(plain, (f) => (f.message.trim() ? [messageShape(f.message)] : []))) {
    out.push({
      finding: `${plural(g.runs.size, 'task')} repeatedly failed the same way (${g.example.slice(0, 120)})`,
      action: 'consider saying in the step prompts what the code must do there, with the expected values',
      errorClass: null,
    });
  }
  for (const g of groups(rows, (f) => f.tests)) {
    out.push({
      finding: `${plural(g.runs.size, 'task')} left the test "${g.key}" failing`,
      action: 'look at that test and the code it checks before the next run: is it out of date or flaky?',
      errorClass: null,
    });
  }
  for (const g of groups(rows, (f) => f.files)) {
    out.push({
      finding: `${plural(g.runs.size, 'task')} left failures in ${g.key} unfixed`,
      action: `say in the step prompts what ${g.key} must do, or split the work on it into smaller steps`,
      errorClass: null,
    });
  }
  return out;
}
