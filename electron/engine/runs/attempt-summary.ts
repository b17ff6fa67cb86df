// Seed 002's "Attempts Summary": one line per attempt, with how many failing tests each retry fixed.
export interface AttemptFacts {
  n: number;
  outcome: string;
  errorClass: string | null;
  message: string | null;
  failedTests: string[];
}

export function describeAttempt(a: AttemptFacts, previous: AttemptFacts | undefined): string {
  const label = a.n === 1 ? 'Initial' : `Retry ${a.n - 1}`;
  if (a.outcome === 'passed') return `${a.n}. ${label}: passed`;
  if (a.outcome === 'interrupted') return `${a.n}. ${label}: interrupted (the process stopped; not counted as a failure)`;
  let what: string;
  if (a.failedTests.length > 0) {
    what = `${a.failedTests.length} ${a.failedTests.length === 1 ? 'test' : 'tests'} failed`;
  } else {
    what = `${a.errorClass ?? 'failed'}${a.message ? `: ${a.message}` : ''}`;
  }
  if (previous && previous.failedTests.length > 0) {
    const now = new Set(a.failedTests);
    const fixed = previous.failedTests.filter((t) => !now.has(t)).length;
    if (fixed > 0) what += ` (fixed ${fixed})`;
    else if (a.failedTests.length >= previous.failedTests.length && a.failedTests.length > 0) what += ' (no improvement)';
  }
  return `${a.n}. ${label}: ${what}`;
}

export function attemptsSummary(attempts: readonly AttemptFacts[], remaining: readonly string[] = []): string {
  const lines = ['Attempts summary:', ...attempts.map((a, i) => describeAttempt(a, attempts[i - 1]))];
  if (remaining.length) lines.push('Remaining issues:', ...remaining.slice(0, 20).map((r) => `- ${r}`));
  return lines.join('\n');
}
