// The goal lines the benchmarks print (`P<n> <what>: ratio <x> (goal <op> <y>) ok|MISSED`, measure.ts goalLine), read
// back by run-all.ts into the table every `npm run bench` ends with.
export interface GoalRow {
  id: string;
  what: string;
  ratio: string;
  goal: string;
  ok: boolean;
}

const LINE = /^(P\d+[a-z]?) (.*): ratio (\S+) \(goal ([≤≥]) (\S+)\) (ok|MISSED)$/;

/** One goal line, or null for any other line. */
export function parseGoalLine(line: string): GoalRow | null {
  const m = LINE.exec(line.trimEnd());
  if (!m) return null;
  return { id: m[1] as string, what: m[2] as string, ratio: m[3] as string, goal: `${m[4]} ${m[5]}`, ok: m[6] === 'ok' };
}

/** The table: one row per goal line (name, ratio, goal, ok/MISSED), then how many were met. */
export function goalTable(rows: ReadonlyArray<GoalRow & { bench?: string }>): string {
  const name = (r: GoalRow) => `${r.id} ${r.what}`.slice(0, 90);
  const width = Math.max(4, ...rows.map((r) => name(r).length));
  const out = [`   ${'goal'.padEnd(width)}  ${'ratio'.padStart(8)}  ${'goal'.padEnd(8)}  result`];
  for (const r of rows) out.push(`   ${name(r).padEnd(width)}  ${r.ratio.padStart(8)}  ${r.goal.padEnd(8)}  ${r.ok ? 'ok' : 'MISSED'}`);
  const met = rows.filter((r) => r.ok).length;
  out.push(
    `   ${met} of ${rows.length} goals met${
      met < rows.length
        ? `; MISSED: ${rows
            .filter((r) => !r.ok)
            .map((r) => r.id)
            .join(', ')}`
        : ''
    }`,
  );
  return out.join('\n');
}
