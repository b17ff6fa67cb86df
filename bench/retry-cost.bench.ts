// Benchmark: what retries cost. A step that takes 4 attempts, run by the real engine through the scripted server (which bills
// prompt caching like the API): input cost of attempts 2–4 with caching ÷ the same tokens uncached (goal ≤ 0.4), the whole
// step ÷ its first attempt, and the same step run the naive way (new session per retry, every error appended to the task text).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { loadPricing, rateFor } from '../electron/engine/agents/pricing';
import { DEFAULT_PRICING_FILE } from '../electron/engine/engine';
import { startScriptedServer, type ScriptResponse } from '../electron/scripted/server';
import { create, queue, say, turn } from '../electron/engine/testing/fixture-project';
import { makeRepo } from '../electron/engine/testing/temp-repo';
import { goalLine } from './measure';

const MODEL = 'claude-sonnet-5-5';
const rate = rateFor(loadPricing(DEFAULT_PRICING_FILE), MODEL)!;
// A realistic task: a few pages of description and plan (about 6,000 tokens), as people paste specs and context.
const description = Array.from(
  { length: 120 },
  (_, i) =>
    `- Requirement ${i + 1}: the inventory module must keep item ${i} consistent with the save file format v${i % 7}, validating quantities, weights and ids.`,
).join('\n');

function attempt(k: number): ScriptResponse[] {
  return [
    turn({ type: 'tool_use', name: 'bash', input: { command: 'ls -la && cat package.json' } }),
    turn(create(`src/inventory-${k}.mjs`, `export const version = ${k};\n${'// implementation detail\n'.repeat(40)}`)),
    say(`Attempt ${k}: implemented the change.`),
  ];
}

async function runStep(retryYaml: string): Promise<{ attempts: Array<{ n: number; costUsd: number; input: number; cacheWrite: number; cacheRead: number }> }> {
  const repo = makeRepo({ 'package.json': '{ "name": "inv", "type": "module" }\n' });
  // The counter lives in the run's TMPDIR: the sandbox lets a gate write only there and in the worktree.
  const counter = `"$TMPDIR/bench-n-${Math.random().toString(36).slice(2)}"`;
  // A failing run prints what real test runners print: the failure, a stack, and the surrounding suite (about 60 lines).
  const gate = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; if [ "$n" -lt 3 ]; then for i in $(seq 1 40); do echo "ok $i - inventory case $i keeps its invariants"; done; echo "not ok 41 - keeps weights consistent"; echo "  ---"; echo "  expected: 12"; echo "  actual: $n"; for f in $(seq 1 15); do echo "    at Inventory.recalculate$f (src/inventory.mjs:$((f*7)):13)"; done; echo "  ..."; exit 1; fi`;
  const wf = join(mkdtempSync(join(tmpdir(), 'ratchet-bench-wf-')), 'ratchet.yml');
  writeFileSync(
    wf,
    `task: { title: Inventory, description: ${JSON.stringify(description)} }
gates: { test: ${JSON.stringify(gate)} }
agent: { model: ${MODEL} }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
on_repeat: { after: 3, action: retry }
${retryYaml}
steps:
  - title: Keep weights consistent
    prompt: Make the inventory weights consistent with the save format.
`,
  );
  const server = await startScriptedServer({ script: { rules: queue(...attempt(1), ...attempt(2), ...attempt(3), ...attempt(4)) } });
  const engine = createEngine({
    home: join(mkdtempSync(join(tmpdir(), 'ratchet-bench-home-')), 'h'),
    env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
  });
  const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: wf }));
  const doc = await engine.execute(runId, new AbortController().signal);
  engine.close();
  await engine.releaseSandbox();
  await server.close();
  if (doc.status !== 'succeeded' || doc.steps[0]!.attempts.length !== 4) throw new Error(`expected 4 attempts and success, got ${doc.status}: ${doc.reason}`);
  return {
    attempts: doc.steps[0]!.attempts.map((a) => ({
      n: a.n,
      costUsd: a.costUsd ?? NaN,
      input: a.inputTokens,
      cacheWrite: a.cacheWriteTokens,
      cacheRead: a.cacheReadTokens,
    })),
  };
}

const inputCost = (a: { input: number; cacheWrite: number; cacheRead: number }) =>
  (a.input * rate.input + a.cacheWrite * rate.cache_write + a.cacheRead * rate.cache_read) / 1e6;
const uncachedInputCost = (a: { input: number; cacheWrite: number; cacheRead: number }) => ((a.input + a.cacheWrite + a.cacheRead) * rate.input) / 1e6;

const ratchet = await runStep('');
const retries = ratchet.attempts.slice(1);
const cachedRatio = retries.reduce((s, a) => s + inputCost(a), 0) / retries.reduce((s, a) => s + uncachedInputCost(a), 0);
const stepCost = ratchet.attempts.reduce((s, a) => s + a.costUsd, 0);
const firstCost = ratchet.attempts[0]!.costUsd;

// The naive way: every retry is a new session whose task text has every previous error appended, billed without caching.
const seed002 = await runStep(`retry:
  - not: gate.test
    session: new
    prompt: "{step.prompt}\\n\\n## Previous Attempt Failed\\n{errors}\\n\\nPlease fix the issues above and try again."
  - exit: 5`);
const seed002Cost = seed002.attempts.reduce((s, a) => s + uncachedInputCost(a) + (a.costUsd - inputCost(a)), 0);
const seed002First = uncachedInputCost(seed002.attempts[0]!) + (seed002.attempts[0]!.costUsd - inputCost(seed002.attempts[0]!));

const perAttempt = (xs: typeof ratchet.attempts) => xs.map((a) => `${a.n}: ${a.input + a.cacheWrite + a.cacheRead} in (${a.cacheRead} cached)`).join(', ');
console.log(`Ratchet input tokens per attempt: ${perAttempt(ratchet.attempts)}`);
console.log(`seed 002 input tokens per attempt: ${perAttempt(seed002.attempts)}`);
const ok = goalLine('P2', 'retry input cost, attempts 2–4, with prompt caching ÷ uncached', cachedRatio, 0.4);
console.log(
  `whole step (4 attempts) ÷ first attempt: Ratchet ${(stepCost / firstCost).toFixed(2)}  vs  seed 002's approach ${(seed002Cost / seed002First).toFixed(2)}`,
);
console.log(`step cost: Ratchet $${stepCost.toFixed(4)}  vs  seed 002's approach $${seed002Cost.toFixed(4)} (${(stepCost / seed002Cost).toFixed(2)}×)`);
process.exitCode = ok ? 0 : 1;
