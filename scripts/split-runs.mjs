// Splits electron/engine/runs/ by concern (policy/, failures/, prompts/, run/, step/), as ENGINE_UNITS in
// eslint-rules/layers.js assigns its files: pure `git mv` plus the rewrites of every import and path mention
// (scripts/move-modules.mjs). A test moves with its subject; the tests named otherwise are listed below. Re-runnable on
// a tree where runs/ has gained files: a file neither in ENGINE_UNITS nor below is reported, and nothing moves.
// Usage: node scripts/split-runs.mjs [--dry-run]
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ENGINE_UNITS } from '../eslint-rules/layers.js';
import { moveModules } from './move-modules.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = 'electron/engine/runs';

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
    return ENGINE_UNITS[`runs/${subject}`] ?? null;
  };
  const names = readdirSync(path.join(ROOT, RUNS));
  const homeless = names.filter((n) => !unitOf(n));
  if (homeless.length) throw new Error(`no folder for ${homeless.map((n) => `runs/${n}`).join(', ')}: add it to ENGINE_UNITS or OTHERS`);
  return names.map((n) => [`${RUNS}/${n}`, `electron/engine/${unitOf(n)}/${n}`]);
}

if (process.argv[1] === import.meta.filename) {
  if (!existsSync(path.join(ROOT, RUNS))) {
    console.error(`${RUNS} is already split.`);
    process.exit(0);
  }
  const plan = splitPlan();
  for (const [from, to] of plan) console.log(`${from} -> ${to}`);
  if (!process.argv.includes('--dry-run')) moveModules(plan);
}
