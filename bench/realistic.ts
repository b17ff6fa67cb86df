// Realistic content for the store benchmarks: a step prompt, an agent transcript of about 30 KB, a diff, a gate log.
import type { z } from 'zod';
import type { TranscriptEntryDoc } from '../shared/engine-events';

type Entry = { kind: 'text' | 'tool_use' | 'tool_result'; text: string; name?: string; input?: unknown; isError?: boolean };

const sourceLine = (k: number, i: number) =>
  `  const item${i} = inventory.get(${k * 31 + i}); if (!item${i} || item${i}.weight < 0) throw new Error('bad weight for ${i}');`;

/** A step prompt as the engine renders it: task context, the step, its gates (about 6 KB). */
export function realisticPrompt(k: number): string {
  const reqs = Array.from(
    { length: 40 },
    (_, i) => `- Requirement ${i + 1}: the inventory module keeps item ${i} consistent with save format v${(i + k) % 7}.`,
  );
  return `## Task: Inventory\n${reqs.join('\n')}\n\n## Step ${k}\nImplement part ${k} of the inventory module in src/part-${k}.mjs.\nGates: npm test, npm run lint.\n`;
}

/** An agent transcript of about `bytes` bytes of JSON: reads, edits, test output, the agent's notes. */
export function realisticTranscript(k: number, bytes = 30_000): Array<Entry> {
  const out: Entry[] = [];
  let size = 2;
  for (let turn = 0; size < bytes; turn++) {
    const file = `src/part-${k}-${turn % 5}.mjs`;
    const body = Array.from({ length: 12 }, (_, i) => sourceLine(k + turn, i)).join('\n');
    const batch: Entry[] = [
      { kind: 'text', text: `Turn ${turn}: I will read ${file} and then adjust the weight validation so that the save format stays consistent.` },
      { kind: 'tool_use', text: `cat ${file}`, name: 'bash', input: { command: `cat ${file}` } },
      { kind: 'tool_result', text: body, isError: false },
      {
        kind: 'tool_use',
        text: `edit ${file}`,
        name: 'str_replace',
        input: { path: file, old_str: sourceLine(k + turn, 3), new_str: sourceLine(k + turn + 1, 3) },
      },
      { kind: 'tool_result', text: `The file ${file} has been edited.`, isError: false },
    ];
    for (const e of batch) {
      out.push(e);
      size += JSON.stringify(e).length + 1;
    }
  }
  return out satisfies Array<z.infer<typeof TranscriptEntryDoc>>;
}

/** A unified diff of about `lines` changed lines over a few files. */
export function realisticDiff(k: number, lines = 120): string {
  const parts: string[] = [];
  for (let f = 0; f < 4; f++) {
    parts.push(
      `diff --git a/src/part-${k}-${f}.mjs b/src/part-${k}-${f}.mjs`,
      `--- a/src/part-${k}-${f}.mjs`,
      `+++ b/src/part-${k}-${f}.mjs`,
      `@@ -1,${lines / 4} +1,${lines / 4} @@`,
    );
    for (let i = 0; i < lines / 4; i++) parts.push(`${i % 2 ? '+' : '-'}${sourceLine(k + f, i)}`);
  }
  return `${parts.join('\n')}\n`;
}

/** A failing test run's log: `lines` lines of passing cases, one failure with its stack. */
export function realisticGateLog(k: number, lines = 60): string {
  const ok = Array.from({ length: lines }, (_, i) => `ok ${i + 1} - inventory case ${i + 1} of part ${k} keeps its invariants`);
  const stack = Array.from({ length: 15 }, (_, f) => `    at Inventory.recalculate${f} (src/inventory.mjs:${f * 7}:13)`);
  return [...ok, `not ok ${lines + 1} - keeps weights consistent`, '  ---', '  expected: 12', `  actual: ${k}`, ...stack, '  ...'].join('\n');
}
