// The PR panel's toggles acted on (issue 31): opening a pull request from the app runs the same loop as `ratchet pr
// --watch --fix … --merge …` with the options saved for the run — a real CI failure fixed in one round, then merged
// only once every required check passed; a toggle changed while it watches takes effect at the next round; a host
// restarted while it watched takes the watch up again. Driven through the service as the app drives it, against the
// scripted GitHub (its CI really runs the project's checks on each pushed commit) over a real bare remote.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrPanelDoc } from '../../../shared/contract';
import { startScriptedGithub, type ScriptedGithub } from '../../scripted/github-server';
import { githubProject, TINY_PROJECT, type GithubFixture } from '../../scripted/testing/github-fixture';
import type { Service } from './service';
import { create, queue, replace, say, turn } from '../testing/fixture-project';
import { callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { sh, tempDir } from '../testing/temp-repo';

// CI's `test` runs the local gate and one more check the local gate does not: notes that say broken must be mended.
const CI_JS = `const t = require('fs').existsSync('notes.txt') ? require('fs').readFileSync('notes.txt', 'utf8') : '';
console.log('TAP version 14');
if (t.includes('broken')) { console.log('not ok 1 - the notes are mended'); console.log('1..1'); process.exit(1); }
console.log('ok 1 - the notes are mended');
console.log('1..1');
`;

const harness = serviceHarness();
let f: GithubFixture;
let gh: ScriptedGithub;
/** The required check `hold` waits for this file: what keeps a pull request watched while a test changes something. */
let go: string;

beforeAll(async () => {
  f = githubProject({ ...TINY_PROJECT, 'ci.js': CI_JS });
  go = join(tempDir(), 'go');
  writeFileSync(go, '');
  gh = await startScriptedGithub({
    bare: f.bare,
    checks: [
      { name: 'test', command: 'node test.js && node ci.js' },
      { name: 'hold', command: `while [ ! -f ${go} ]; do sleep 0.05; done`, timeoutMs: 60_000 },
    ],
    scenario: { requiredChecks: ['test', 'hold'] },
  });
}, 60_000);

afterAll(async () => {
  writeFileSync(go, '');
  await gh.close();
  f.cleanup();
});

const ENV = () => ({ ...process.env, RATCHET_PR_POLL_MS: '40' });

/** A host over `home`: its agent writes the notes (broken when `broken`), then, asked to fix CI, mends them. */
const host = (home: string, notes: string, env: NodeJS.ProcessEnv = {}) =>
  harness.start({
    home,
    server: { script: { rules: queue(turn(create('notes.txt', notes)), say('done'), turn(replace('notes.txt', 'broken', 'mended')), say('done')) } },
    service: { env: { ...ENV(), ...env } },
  });

async function succeededRun(service: Service, engine: { store: { getRun(id: string): { status: string } | undefined } }, title: string): Promise<string> {
  await callValue(service, 'github.set', { token: 'test-token', apiUrl: gh.url });
  const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
    repo: f.work,
    title,
    steps: [{ title }],
    gates: { test: 'node test.js' },
    // The task from an issue of acme/widget: what tells the run's pull request where to go (the remote is a bare path).
    issue: `${gh.url}/acme/widget/issues/${gh.addIssue({ title, body: 'As the title says.' })}`,
  });
  await until(() => engine.store.getRun(runId)?.status === 'succeeded', 60_000);
  return runId;
}

const panel = (service: Service, runId: string) => callValue<PrPanelDoc>(service, 'pr.get', { runId });

/** The panel once `ok` holds for it (asked again every 50 ms, as the app's panel asks while it watches). */
async function panelWhen(service: Service, runId: string, ok: (d: PrPanelDoc) => boolean, ms = 10_000): Promise<PrPanelDoc> {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = await panel(service, runId);
    if (ok(d)) return d;
    if (Date.now() > deadline) throw new Error(`timed out waiting for the panel; last: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const pullOf = (number: number | undefined) => gh.state.pulls.find((p) => p.number === number);

describe('the app’s toggles run the loop', () => {
  it('Fix CI and Merge when green: a real CI failure is fixed in one round (local gates, then pushed), then merged once every required check passed', async () => {
    const { service, engine } = await host(tempDir(), 'broken notes\n');
    const runId = await succeededRun(service, engine, 'Break CI');
    const opened = await callValue<PrPanelDoc>(service, 'pr.open', { runId, options: { fix: ['ci'], merge: 'squash' } });
    const number = opened.pr?.number;
    await until(() => pullOf(number)?.merged === true, 90_000);
    const doc = await panelWhen(service, runId, (d) => !d.watching);
    expect(doc.pr).toMatchObject({ merged: true, state: 'closed' });
    expect(doc.pr?.rounds).toEqual([expect.objectContaining({ kind: 'ci', trigger: 'test', outcome: 'pushed', attempts: 1, tests: ['the notes are mended'] })]);
    expect(doc.progress).toMatch(/is merged \(squash\)/);
    expect(engine.store.getSteps(runId).map((s) => s.title)).toEqual(['Break CI', 'Fix CI: test']);
    expect(sh(f.bare, 'show', 'main:notes.txt')).toContain('mended');
    sh(f.work, 'pull', '-q', '--ff-only', 'origin', 'main');
  }, 120_000);

  it('a toggle changed while it watches takes effect at the next round: Merge when green turned on while a required check runs', async () => {
    rmSync(go, { force: true });
    const { service, engine } = await host(tempDir(), 'fine notes\n');
    const runId = await succeededRun(service, engine, 'Fine notes');
    const opened = await callValue<PrPanelDoc>(service, 'pr.open', { runId, options: { fix: ['ci'], merge: null } });
    // The watch took its options when the pull request was opened: this change reaches it at its next round.
    await callValue(service, 'pr.setOptions', { runId, fix: ['ci'], merge: 'merge' });
    writeFileSync(go, '');
    await until(() => pullOf(opened.pr?.number)?.merged === true, 100_000);
    // The panel says so once the loop has recorded the merge it asked for (a moment after GitHub shows it).
    expect((await panelWhen(service, runId, (d) => d.pr?.merged === true, 30_000)).pr?.merged).toBe(true);
    sh(f.work, 'pull', '-q', '--ff-only', 'origin', 'main');
  }, 180_000);

  it('a host restarted while it watched takes the watch up again, and merges when green without being asked', async () => {
    rmSync(go, { force: true });
    const home = tempDir();
    const first = await host(home, 'restart notes\n');
    const runId = await succeededRun(first.service, first.engine, 'Restart notes');
    const opened = await callValue<PrPanelDoc>(first.service, 'pr.open', { runId, options: { fix: ['ci'], merge: 'squash' } });
    await panelWhen(first.service, runId, (d) => d.live?.waitingFor.includes('hold') === true, 30_000);
    // The host goes away mid-watch, then comes back over the same home; nobody opens the panel.
    await first.service.close();
    await first.engine.releaseSandbox();
    await first.server.close();
    // The token from the environment, as the desktop app's keychain would give it back (the first host kept it in memory).
    const second = await host(home, 'unused\n', { GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: gh.url });
    writeFileSync(go, '');
    // Under the whole suite's load the scripted CI's jobs take a minute or more (9 s alone).
    await until(() => pullOf(opened.pr?.number)?.merged === true, 100_000);
    expect(existsSync(go)).toBe(true);
    expect((await panelWhen(second.service, runId, (d) => !d.watching)).pr?.merged).toBe(true);
    sh(f.work, 'pull', '-q', '--ff-only', 'origin', 'main');
  }, 180_000);
});
