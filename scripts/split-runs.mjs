// Splits electron/engine/runs/ by concern (policy/, failures/, prompts/, run/, step/), as FOLDER_OF below assigns its
// files (the layer map's ENGINE_UNITS until the split): pure `git mv` plus the rewrites of every import and path mention
// (scripts/move-modules.mjs). A test moves with its subject; the tests named otherwise are listed below. Re-runnable on
// a tree where runs/ has gained files: a file neither in FOLDER_OF nor below is reported, and nothing moves.
// Usage: node scripts/split-runs.mjs [--dry-run]
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { moveModules } from './move-modules.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = 'electron/engine/runs';

/** The folder each module of runs/ went to. */
export const FOLDER_OF = {
  'runs/policy.ts': 'policy',
  'runs/decide.ts': 'policy',
  'runs/backoff.ts': 'policy',
  'runs/budget.ts': 'policy',
  'runs/retry-entries.ts': 'policy',
  'runs/policy-doc.ts': 'policy',
  'runs/task-retry-config.ts': 'policy',
  'runs/classify.ts': 'failures',
  'runs/classify-api.ts': 'failures',
  'runs/classify-compile.ts': 'failures',
  'runs/classify-context.ts': 'failures',
  'runs/classify-hints.ts': 'failures',
  'runs/classify-missing.ts': 'failures',
  'runs/classify-network.ts': 'failures',
  'runs/classify-npm.ts': 'failures',
  'runs/classify-process.ts': 'failures',
  'runs/classify-result.ts': 'failures',
  'runs/classify-toolchain.ts': 'failures',
  'runs/classify-tests.ts': 'failures',
  'runs/failure.ts': 'failures',
  'runs/fingerprint.ts': 'failures',
  'runs/attempt-summary.ts': 'failures',
  'runs/prompts.ts': 'prompts',
  'runs/run-machine.ts': 'run',
  'runs/run-reasons.ts': 'run',
  'runs/step-outcome.ts': 'run',
  'runs/apply-run-commands.ts': 'run',
  'runs/continuation.ts': 'run',
  'runs/reconcile.ts': 'run',
  'runs/resume-plan.ts': 'run',
  'runs/status-document.ts': 'run',
  'runs/api-hold.ts': 'run',
  'runs/step-agent-attempt.ts': 'step',
  'runs/step-attempt.ts': 'step',
  'runs/step-events.ts': 'step',
  'runs/step-failure.ts': 'step',
  'runs/step-kit.ts': 'step',
  'runs/step-machine.ts': 'step',
  'runs/step-ports.ts': 'step',
  'runs/step-prompt.ts': 'step',
  'runs/step-rebase.ts': 'step',
  'runs/step-restore.ts': 'step',
  'runs/step-runner.ts': 'step',
  'runs/step-state.ts': 'step',
  'runs/step-stored-attempts.ts': 'step',
  'runs/step-tdd.ts': 'step',
  'runs/attempt-gates.ts': 'step',
  'runs/retry-focus.ts': 'step',
  'runs/tdd.ts': 'step',
  'runs/tdd-restore.ts': 'step',
  'runs/validators.ts': 'step',
};

/** Tests (and data) in runs/ whose name is not their subject's: the folder each goes to. */
export const OTHERS = {
  'app-reason.test.ts': 'run',
  'run-reason-codes.test.ts': 'run',
  'classify-env.test.ts': 'failures',
  'classify-context.integration.test.ts': 'failures',
  'classify-corpus': 'failures',
  'policy-sources.test.ts': 'policy',
  'policy.integration.test.ts': 'policy',
  'prompts-terminal.test.ts': 'prompts',
  'did-nothing.integration.test.ts': 'step',
  'retry-focus.integration.test.ts': 'step',
  'retry-promises.integration.test.ts': 'step',
  'step-machine-replay.test.ts': 'step',
};

/** [old, new] for every entry of runs/, or throws naming the entries with no folder. */
export function splitPlan() {
  const unitOf = (name) => {
    if (OTHERS[name]) return OTHERS[name];
    const subject = name.replace(/(\.integration)?\.test\.ts$/, '.ts');
    return FOLDER_OF[`runs/${subject}`] ?? null;
  };
  const names = readdirSync(path.join(ROOT, RUNS));
  const homeless = names.filter((n) => !unitOf(n));
  if (homeless.length) throw new Error(`no folder for ${homeless.map((n) => `runs/${n}`).join(', ')}: add it to FOLDER_OF or OTHERS`);
  return names.map((n) => [`${RUNS}/${n}`, `electron/engine/${unitOf(n)}/${n}`]);
}

if (process.argv[1] === import.meta.filename) {
  if (!existsSync(path.join(ROOT, RUNS)) || readdirSync(path.join(ROOT, RUNS)).length === 0) {
    console.error(`${RUNS} is already split.`);
    process.exit(0);
  }
  const plan = splitPlan();
  for (const [from, to] of plan) console.log(`${from} -> ${to}`);
  if (!process.argv.includes('--dry-run')) moveModules(plan);
}
