// `ratchet resume` with no run id: every run a resume can continue is offered (not only interrupted ones), and inside a run's own worktree that run is picked (issue 29 item 9).
import { describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { interruptedRun } from './testing/interrupted-run';
import { cli } from './testing/run-cli';

const PROCEED = /Proceed with resume\? \[Y\/n\] $/;
const AFTER_STEP = /completed! Continue to step 3\/3 [^]*\[Y\] $/;

/** A run paused at the [N] prompt after step 2 (the user said no). */
async function pausedRun() {
  const made = await interruptedRun();
  const r = await cli(['resume', made.runId, '--json'], made.env, [
    [PROCEED, ''],
    [AFTER_STEP, 'n'],
  ]);
  const doc = StatusDocument.parse(JSON.parse(r.out));
  expect(doc.status).toBe('paused');
  return { ...made, doc };
}

describe('ratchet resume with no run id', () => {
  it('offers a run paused at the [N] prompt, with its status, and says how to resume it', async () => {
    const { env, runId } = await pausedRun();
    const r = await cli(['resume'], env);
    expect(r.err).not.toContain('No interrupted workflow found');
    expect(r.err).toMatch(new RegExp(`1\\. .*paused.*\\[${runId}\\]`));
    expect(r.err).toContain('Pass the run id to resume one: ratchet resume <run-id>');
    expect(r.code).toBe(2);
  });

  it('inside a run’s own worktree, resumes that run', async () => {
    const { env, runId, doc } = await pausedRun();
    const before = process.cwd();
    process.chdir(doc.worktree);
    try {
      const r = await cli(['resume', '--yes', '--json'], env);
      expect(r.code, r.err).toBe(0);
      const after = StatusDocument.parse(JSON.parse(r.out));
      expect(after.id).toBe(runId);
      expect(after.status).toBe('succeeded');
    } finally {
      process.chdir(before);
    }
  });

  it('`run` on the repository of a run paused between steps warns and points to resume, as for an interrupted run', async () => {
    const { p, env, runId } = await pausedRun();
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    expect(r.err).toContain(`Warning: this repository has a run paused between steps of "Step number 1" (${runId}). \`ratchet resume ${runId}\` continues it`);
  }, 90_000);
});
