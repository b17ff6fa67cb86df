// Benchmark: what finishing a failed run with `retry` costs. A 10-step run fails at step 7 (its gate fails, no retries
// allowed); the gate is fixed and engine.retry() finishes steps 7–10 on the same branch. Its tokens (input + cache write +
// cache read + output, from the status document's resumes[0]) ÷ the tokens of steps 7–10 in a clean 10-step run of the same
// plan (goal ≤ 1.15: continuing costs about what the remaining steps cost), and ÷ the whole clean run, i.e. a restart from
// scratch (goal ≤ 0.5; 0.4 is the ideal, 4 of 10 steps). Both runs go through the real engine and the scripted server,
// which bills prompt caching like the API; the agent does the same work at every step of both runs, looking around first
// (`git log`) as agents do before they act.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusDocument } from '../shared/domain';
import { createEngine } from '../electron/engine/engine';
import { startScriptedServer, type RecordedRequest, type ScriptResponse } from '../electron/scripted/server';
import { create } from '../electron/engine/testing/fixture-project';
import { makeRepo } from '../electron/engine/testing/temp-repo';
import { goalLine } from './measure';

const STEPS = 10;
const FAIL_AT = 7;
const MODEL = 'claude-sonnet-5-5';
// A realistic task: a few pages of description (about 6,000 tokens), as people paste specs and context.
const description = Array.from(
  { length: 120 },
  (_, i) =>
    `- Requirement ${i + 1}: the inventory module must keep item ${i} consistent with the save file format v${i % 7}, validating quantities, weights and ids.`,
).join('\n');

type Usage = { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
const tokens = (u: Usage) => u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens + u.outputTokens;

// ---- the agent: the same three turns at every step, chosen by content (which step, how far into it), never by order ----

function userTexts(req: RecordedRequest): string[] {
  const out: string[] = [];
  for (const m of (req.body?.messages ?? []) as Array<{ role?: string; content?: unknown }>) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content))
      for (const b of m.content as Array<{ type?: string; text?: unknown }>) if (b.type === 'text' && typeof b.text === 'string') out.push(b.text);
  }
  return out;
}

function agent(req: RecordedRequest): ScriptResponse {
  let k = 0;
  for (const t of userTexts(req)) for (const m of t.matchAll(/## Step (\d+) of \d+/g)) k = Number(m[1]);
  const results = ((req.body?.messages ?? []) as Array<{ content?: unknown }>)
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type?: string }>) : []))
    .filter((b) => b.type === 'tool_result').length;
  if (k === 0) return { content: [{ type: 'text', text: 'Which step is this?' }] };
  if (results === 0) return { content: [{ type: 'tool_use', name: 'bash', input: { command: 'git log' } }] };
  if (results === 1) {
    return { content: [create(`src/part-${k}.mjs`, `export const part = ${k};\n${'// implementation detail\n'.repeat(40)}`)] };
  }
  return { content: [{ type: 'text', text: `Step ${k}: implemented part ${k}.` }] };
}

// ---- one run of the plan ---------------------------------------------------------------------------------------------

async function runPlan(failFirst: boolean): Promise<{ first: StatusDocument; final: StatusDocument }> {
  const repo = makeRepo({ 'package.json': '{ "name": "inv", "type": "module" }\n' });
  // Step 7's gate passes once this file exists. Same path length in both runs, so both prompts have the same size.
  const flag = join(mkdtempSync(join(tmpdir(), 'ratchet-bench-flag-')), 'fixed');
  if (!failFirst) writeFileSync(flag, '');
  const wf = join(mkdtempSync(join(tmpdir(), 'ratchet-bench-wf-')), 'ratchet.yml');
  writeFileSync(
    wf,
    `task: { title: Inventory, description: ${JSON.stringify(description)} }
gates:
  check: "true"
  fixed: ${JSON.stringify(`test -f ${flag} || { echo "not ok 1 - part ${FAIL_AT} keeps weights consistent"; exit 1; }`)}
agent: { model: ${MODEL}, max_turns: 40 }
max_retries: 0
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
steps:
${Array.from({ length: STEPS }, (_, i) => `  - title: Part ${i + 1}\n    prompt: Implement part ${i + 1} of the inventory module in src/part-${i + 1}.mjs.\n    gates: [${i + 1 === FAIL_AT ? 'fixed' : 'check'}]`).join('\n')}
`,
  );
  const server = await startScriptedServer({ script: agent });
  const engine = createEngine({
    home: join(mkdtempSync(join(tmpdir(), 'ratchet-bench-home-')), 'h'),
    env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
  });
  try {
    const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: wf }));
    const signal = new AbortController().signal;
    const first = await engine.execute(runId, signal);
    if (!failFirst) return { first, final: first };
    if (first.status !== 'failed') throw new Error(`the first run should fail at step ${FAIL_AT}, it is ${first.status}: ${first.reason}`);
    writeFileSync(flag, '');
    const { doc } = await engine.retry(runId, { signal });
    return { first, final: doc };
  } finally {
    engine.close();
    await engine.releaseSandbox();
    await server.close();
  }
}

function check(doc: StatusDocument, what: string): void {
  if (doc.status !== 'succeeded') throw new Error(`${what}: expected success, got ${doc.status}: ${doc.reason}`);
  const bad = doc.steps.filter((s) => s.status !== 'succeeded' || !s.commit);
  if (bad.length) throw new Error(`${what}: steps not committed: ${bad.map((s) => s.index).join(', ')}`);
}

const clean = (await runPlan(false)).final;
check(clean, 'clean run');
const { first, final } = await runPlan(true);
check(final, 'retried run');
if (first.steps.slice(0, FAIL_AT - 1).some((s) => s.status !== 'succeeded')) throw new Error(`steps 1–${FAIL_AT - 1} should have succeeded before the failure`);
const retry = final.resumes[0];
if (!retry || retry.kind !== 'retry') throw new Error(`expected the run's first continuation to be a retry, got ${JSON.stringify(final.resumes)}`);

const cleanStep = (k: number) => (clean.steps[k - 1]?.attempts ?? []).reduce((n, a) => n + tokens(a), 0);
const tail = Array.from({ length: STEPS - FAIL_AT + 1 }, (_, i) => cleanStep(FAIL_AT + i)).reduce((a, b) => a + b, 0);
const whole = Array.from({ length: STEPS }, (_, i) => cleanStep(i + 1)).reduce((a, b) => a + b, 0);
const retryTokens = tokens(retry);
const retryAttempts = final.steps
  .slice(FAIL_AT - 1)
  .map((s) => `${s.index}: ${s.attempts.map((a) => `#${a.n} ${a.outcome}`).join(' ')}`)
  .join(', ');
const cleanCost = clean.costUsd ?? NaN;
const tailCost = clean.steps
  .slice(FAIL_AT - 1)
  .flatMap((s) => s.attempts)
  .reduce((n, a) => n + (a.costUsd ?? NaN), 0);

console.log(`clean run: ${whole} tokens ($${cleanCost.toFixed(4)}); steps ${FAIL_AT}–${STEPS}: ${tail} tokens ($${tailCost.toFixed(4)})`);
console.log(
  `retry after the failure at step ${FAIL_AT}: ${retryTokens} tokens ($${retry.costUsd.toFixed(4)}): ${retry.inputTokens} input, ${retry.cacheWriteTokens} cache write, ${retry.cacheReadTokens} cache read, ${retry.outputTokens} output; attempts ${retryAttempts}`,
);
const tailRatio = retryTokens / tail;
const restartRatio = retryTokens / whole;
const okTail = goalLine('P4', `retry tokens ÷ steps ${FAIL_AT}–${STEPS} of a clean run`, tailRatio, 1.15);
const okRestart = goalLine('P4b', 'retry tokens ÷ a restart from scratch (whole clean run; ideal 0.4)', restartRatio, 0.5);
console.log(`retry cost ÷ restart cost, for information: ${(retry.costUsd / cleanCost).toFixed(2)}`);
process.exitCode = okTail && okRestart ? 0 : 1;
