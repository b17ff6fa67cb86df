import { describe, expect, it } from 'vitest';
import { ScheduleDoc } from '../../shared/contract/schedules';
import { fixtureProject } from '../engine/testing/fixture-project';
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
