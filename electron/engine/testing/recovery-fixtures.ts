// Test helpers for retry and resume: a script that answers by step (order-independent) and a workflow whose step 2 can be blocked.
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptFn } from '../../scripted/server';
import type { Store } from '../store/store';
import { create, fixtureProject, say, turn } from './fixture-project';
import { sh } from './temp-repo';

/** Answers by content: the first call of an attempt at step k writes steps/k.txt; a tool result gets "done". */
export const byStep: ScriptFn = (req) => {
  const last = (req.body as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1);
  const isToolResult = Array.isArray(last?.content) && (last.content as Array<{ type: string }>).some((b) => b.type === 'tool_result');
  if (isToolResult) return say('done');
  const m = /## Step (\d+) of \d+/.exec(req.lastUserText) ?? /step (\d+)/i.exec(req.lastUserText);
  const k = m ? m[1] : 'x';
  return turn(create(`steps/${k}.txt`, `step ${k} at ${Date.now()} ${Math.random()}\n`));
};

/** A gate that fails while `flag` exists (so a test can make a step fail, then let it pass). */
export function gateFailingWhile(flag: string): string {
  return `if [ -f ${flag} ]; then echo "not ok 1 - blocked by flag"; exit 1; fi; echo ok`;
}

export function setup(steps = 3, extra = '') {
  const flag = join(mkdtempSync(join(tmpdir(), 'ratchet-flag-')), 'fail');
  const list = Array.from({ length: steps }, (_, i) => `  - title: Step number ${i + 1}\n    gates: [${i + 1 === 2 ? 'guarded' : 'plain'}]`).join('\n');
  const p = fixtureProject(
    `gates:\n  plain: "true"\n  guarded: ${JSON.stringify(gateFailingWhile(flag))}\nlimits: { test_failure: 0 }\nflaky_check: false\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\n${extra}\nsteps:\n${list}\n`,
  );
  return { ...p, flag };
}

/**
 * Undoes what the failure handling of a run's `step` did, as if the process running it had died there instead: the
 * rescue commit gone (its changes left staged in `worktree`), the step and its attempts `running`, the run `running`
 * and claimed by a process that does not exist.
 */
export function asIfDiedAtStep(store: Store, runId: string, step: number, worktree: string): void {
  sh(worktree, 'reset', '-q', '--soft', 'HEAD~1');
  store.setStepStatus(runId, step, 'running');
  store.db.prepare("UPDATE attempts SET outcome = 'running' WHERE run_id = ? AND step_index = ?").run(runId, step);
  store.setRunStatus(runId, 'running', null);
  store.claimRun(runId, 2 ** 22 + 99, hostname());
}
