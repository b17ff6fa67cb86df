// `ratchet resume` on a terminal: interactive auto-progress after each step, [y/N] defaults, a damaged database.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { tempDir } from '../engine/testing/temp-repo';
import { confirm } from './cli-kit';
import { interruptedRun } from './testing/interrupted-run';
import { cli } from './testing/run-cli';

const interrupted = () => interruptedRun();

const PROCEED = /Proceed with resume\? \[Y\/n\] $/;
const AFTER_STEP =
  /Step 2 \(Step number 2\) completed! Continue to step 3\/3 \(Step number 3\)\?\n {2}\[Y\]es, continue \/ \[N\]o, pause here \/ \[A\]uto to the end of the phase \[Y\] $/;

describe('interactive auto-progress (seed 003 §5.1)', () => {
  it('asks after each step; [N]o pauses there and the run resumes later from the next step', async () => {
    const { env, runId } = await interrupted();
    const r = await cli(['resume', runId, '--json'], env, [
      [PROCEED, ''],
      [AFTER_STEP, 'n'],
    ]);
    expect(r.err).toContain(
      'Step 2 (Step number 2) completed! Continue to step 3/3 (Step number 3)?\n  [Y]es, continue / [N]o, pause here / [A]uto to the end of the phase [Y] ',
    );
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('paused');
    expect(doc.reason).toContain('Paused after step 2 at your request');
    expect(doc.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'pending']);
    const again = await cli(['resume', runId, '--yes', '--json'], env);
    expect(StatusDocument.parse(JSON.parse(again.out)).status).toBe('succeeded');
  });

  it('Enter is [Y]es: the run goes on to the end, asking once per step that has a next one', async () => {
    const { env, runId } = await interrupted();
    const r = await cli(['resume', runId, '--json'], env, [
      [PROCEED, ''],
      [AFTER_STEP, ''],
    ]);
    expect(r.code).toBe(0);
    expect(StatusDocument.parse(JSON.parse(r.out)).status).toBe('succeeded');
    expect(r.err.match(/completed! Continue to step/g)).toHaveLength(1);
  });

  it('[A]uto runs to the end of the phase without asking again', async () => {
    const { env, runId } = await interrupted();
    const r = await cli(['resume', runId, '--json'], env, [
      [PROCEED, ''],
      [AFTER_STEP, 'a'],
    ]);
    expect(r.code).toBe(0);
    expect(StatusDocument.parse(JSON.parse(r.out)).status).toBe('succeeded');
  });
});

describe('answers on a terminal', () => {
  const ask = async (question: string, typed: string) => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = new PassThrough();
    stderr.resume();
    const answer = confirm({ stdin, stdout: new PassThrough(), stderr, env: {} }, question);
    stdin.write(`${typed}\n`);
    return answer;
  };

  it('"Continue anyway? [y/N]" is No on Enter; [Y/n] questions stay Yes on Enter', async () => {
    expect(await ask('Continue anyway? [y/N] ', '')).toBe(false);
    expect(await ask('Continue anyway? [y/N] ', 'y')).toBe(true);
    expect(await ask('Proceed with resume? [Y/n] ', '')).toBe(true);
    expect(await ask('Proceed with resume? [Y/n] ', 'n')).toBe(false);
  });

  it('a database that cannot be opened is moved aside and `ratchet recover <repo>` is suggested', async () => {
    const home = join(tempDir(), 'home');
    await cli(['list'], { RATCHET_HOME: home });
    writeFileSync(join(home, 'ratchet.db'), 'this is not a database'.repeat(100));
    rmSync(join(home, 'ratchet.db-wal'), { force: true });
    rmSync(join(home, 'ratchet.db-shm'), { force: true });
    const r = await cli(['list'], { RATCHET_HOME: home });
    expect(r.err).toContain('moved aside');
    expect(r.err).toContain('ratchet recover <repo>');
  });
});
