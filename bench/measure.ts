// Shared timing for the benchmarks: warm up, take the median of several rounds, print a ratio against the baseline.
export interface Timing {
  perOpUs: number;
}

export function timeIt(n: number, fn: (i: number) => void, rounds = 5): Timing {
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    per.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  per.sort((a, b) => a - b);
  return { perOpUs: per[Math.floor(per.length / 2)] as number };
}

/**
 * Times subject and baseline in alternating rounds, so drift on a busy machine hits both alike,
 * and reports the median per-round ratio with the median times.
 */
export function compare(
  n: number,
  subject: (i: number) => void,
  baseline: (i: number) => void,
  rounds = 9,
): { subject: Timing; baseline: Timing; ratio: number } {
  const s: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  let offset = 0;
  const once = (fn: (i: number) => void) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(offset + i);
    return Number(process.hrtime.bigint() - start) / 1000 / n;
  };
  once(baseline);
  once(subject);
  for (let r = 0; r < rounds; r++) {
    offset += n;
    const bt = once(baseline);
    const st = once(subject);
    b.push(bt);
    s.push(st);
    ratios.push(st / bt);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
  return { subject: { perOpUs: median(s) }, baseline: { perOpUs: median(b) }, ratio: median(ratios) };
}

export async function timeAsync(fn: () => Promise<void>, rounds = 5): Promise<Timing> {
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    await fn();
    per.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  per.sort((a, b) => a - b);
  return { perOpUs: per[Math.floor(per.length / 2)] as number };
}

/**
 * Prints a goal line, exactly `P<n> <what>: ratio <x> (goal <op> <y>) ok|MISSED`, then the times on a separate line that
 * cannot be mistaken for one. Returns whether the goal was met; benches exit non-zero when it was not.
 */
export function goalLine(id: string, what: string, ratio: number, goal: number, op: '≤' | '≥' = '≤'): boolean {
  const ok = Number.isFinite(ratio) && (op === '≤' ? ratio <= goal : ratio >= goal);
  console.log(`${id} ${what}: ratio ${ratio.toFixed(2)} (goal ${op} ${goal}) ${ok ? 'ok' : 'MISSED'}`);
  return ok;
}

export const fmtUs = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

/** A timed goal: the goal line, then `  (subject … vs baseline …)` for information. */
export function report(id: string, what: string, subject: Timing, baseline: Timing, goal: number, measuredRatio?: number): boolean {
  const ratio = measuredRatio ?? subject.perOpUs / baseline.perOpUs;
  const ok = goalLine(id, what, ratio, goal);
  console.log(`  (${fmtUs(subject.perOpUs)} vs ${fmtUs(baseline.perOpUs)} baseline)`);
  return ok;
}

/** compare() for async work: alternating rounds of `n` calls each, the median per-round ratio. */
export async function compareAsync(
  n: number,
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  rounds = 9,
): Promise<{ subject: Timing; baseline: Timing; ratio: number }> {
  const once = async (fn: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    return Number(process.hrtime.bigint() - start) / 1000 / n;
  };
  await once(baseline);
  await once(subject);
  const s: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const bt = await once(baseline);
    const st = await once(subject);
    b.push(bt);
    s.push(st);
    ratios.push(st / bt);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
  return { subject: { perOpUs: median(s) }, baseline: { perOpUs: median(b) }, ratio: median(ratios) };
}
