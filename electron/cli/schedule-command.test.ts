import { describe, expect, it } from 'vitest';
import { ScheduleDoc } from '../../shared/contract/schedules';
import { fixtureProject } from '../engine/testing/fixture-project';
import { createEngine } from '../engine/engine';
import { scheduleBook } from '../engine/schedule/schedule-book';
import { createScheduleTicker } from '../engine/schedule/schedule-ticker';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';
import { cli } from './testing/run-cli';

describe('ratchet schedule', () => {
  it('adds a schedule (refusing bad cron, time zone and an untrusted workflow with exit 2), lists, pauses, resumes and removes it', async () => {
    const p = fixtureProject();
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k' };
    const add = (...more: string[]) => cli(['schedule', 'add', p.repo, '--workflow', p.workflowFile, ...more], env);

    const bad = await add('--cron', '0 25 * * *');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Invalid cron expression "0 25 \* \* \*"/);
    const zone = await add('--cron', '0 3 * * *', '--tz', 'Europe/Atlantis');
    expect(zone.code).toBe(2);
    expect(zone.err).toContain('Unknown time zone "Europe/Atlantis"');
    const untrusted = await add('--cron', '0 3 * * *');
    expect(untrusted.code).toBe(2);
    expect(untrusted.err).toContain(`ratchet trust ${JSON.stringify(p.repo)} --workflow ${JSON.stringify(p.workflowFile)}`);

    const trusted = await cli(['trust', p.repo, '--workflow', p.workflowFile], env);
    expect(trusted.code, trusted.err).toBe(0);
    const ok = await add('--cron', '0 3 * * 1-5', '--tz', 'Europe/Paris', '--task', 'Nightly bumps', '--budget', '2', '--missed', 'skip', '--json');
    expect(ok.code, ok.err).toBe(0);
    const s = ScheduleDoc.parse(JSON.parse(ok.out));
    expect(s).toMatchObject({ cron: '0 3 * * 1-5', tz: 'Europe/Paris', task: 'Nightly bumps', budgetUsd: 2, missed: 'skip', paused: false, problem: null });
    expect(s.nextAt).toMatch(/T0[12]:00:00\.000Z$/);

    const listed = await cli(['schedule', 'list'], env);
    expect(listed.out).toContain(`${s.id}  0 3 * * 1-5 (Europe/Paris)`);
    expect(listed.out).toMatch(/next \w{3}, \d+ \w{3} \d{4}, 03:00 \(Europe\/Paris\)/);
    const paused = await cli(['schedule', 'pause', s.id, '--json'], env);
    expect(ScheduleDoc.parse(JSON.parse(paused.out))).toMatchObject({ paused: true, nextAt: null });
    expect((await cli(['schedule', 'list'], env)).out).toContain('paused');
    expect(ScheduleDoc.parse(JSON.parse((await cli(['schedule', 'resume', s.id, '--json'], env)).out)).paused).toBe(false);
    expect((await cli(['schedule', 'remove', s.id], env)).out).toContain(`Removed schedule ${s.id}`);
    const gone = await cli(['schedule', 'remove', s.id], env);
    expect(gone.code).toBe(2);
    expect(gone.err).toContain('No schedule');
    expect(JSON.parse((await cli(['schedule', 'list', '--json'], env)).out)).toEqual([]);
  }, 60_000);
});

describe('a scheduled run says which schedule started it', () => {
  it('in `ratchet status` (text and --json): the schedule, its cron and zone', async () => {
    const p = fixtureProject();
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k' };
    expect((await cli(['trust', p.repo, '--workflow', p.workflowFile], env)).code).toBe(0);
    const engine = createEngine({ home: p.home, env: { ...process.env, ...env }, sandbox: TEST_SANDBOX_MODE });
    const created = new Date(Date.parse('2026-03-02T01:30:00.000Z'));
    let now = created;
    const sch = await scheduleBook(engine, () => now).add({ repo: p.repo, cron: '0 3 * * *', tz: 'Europe/Paris', workflowFile: p.workflowFile });
    now = new Date(Date.parse('2026-03-02T02:00:05.000Z')); // 03:00:05 in Paris
    const [runId] = await createScheduleTicker(engine, { now: () => now, execute: () => undefined }).tick();
    engine.close();
    expect(runId).toBeTruthy();

    const json = await cli(['status', runId!, '--json'], env);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out).schedule).toEqual({ id: sch.id, cron: '0 3 * * *', tz: 'Europe/Paris' });
    const text = await cli(['status', runId!], env);
    expect(text.out).toContain(`started by schedule ${sch.id} · 0 3 * * * (Europe/Paris)`);
  });
});
