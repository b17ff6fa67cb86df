// Benchmark P17: what watching one idle pull request costs against GitHub's rate limit. `ratchet pr --watch`'s loop
// (watchPull, the GitHub forge with its conditional requests) watches a pull request whose required check stays
// queued for an hour of scripted time (the loop's clock and sleep are scripted; every request really goes to the
// scripted GitHub, which counts them as GitHub does: a 304 is free). Ratio: requests counted ÷ 60 (per minute).
// Goal ≤ 0.2.
import { githubForge } from '../electron/engine/forge/github';
import { watchPull } from '../electron/engine/forge/pr-watch';
import { githubProject, pushBranch, serveGithub } from '../electron/scripted/testing/github-fixture';
import { goalLine } from './measure';

const HOUR_MS = 3_600_000;
const GOAL = 0.2;

const f = githubProject();
const gh = await serveGithub(f, { requiredChecks: ['test', 'deploy'], pendingChecks: ['deploy'] });
try {
  pushBranch(f, 'ratchet/idle', { 'notes.txt': 'idle\n' });
  const forge = githubForge({ token: 'test-token', apiUrl: gh.url, repo: { owner: 'acme', name: 'widget' } });
  const pr = await forge.createPull({ head: 'ratchet/idle', base: 'main', title: 'Idle', body: '', draft: false });
  await gh.idle(); // `test` has passed; `deploy` stays queued: the pull request waits, and nothing changes for an hour
  let clock = 0;
  let looks = 0;
  const before = gh.rateLimitUsed();
  const sent = forge.usage().requests;
  const hourOver = new Error('an hour of scripted time');
  try {
    await watchPull(forge, pr.number, {
      now: () => clock,
      sleep: async (ms) => {
        looks++;
        clock += ms;
        if (clock >= HOUR_MS) throw hourOver;
      },
    });
    throw new Error('the watch ended, but the pull request was meant to stay waiting');
  } catch (e) {
    if (e !== hourOver) throw e;
  }
  const counted = gh.rateLimitUsed() - before;
  const ok = goalLine('P17', 'GitHub requests counted per minute watching an idle pull request', counted / 60, GOAL);
  const u = forge.usage();
  console.log(`  (${counted} counted of ${u.requests - sent} sent in ${looks} looks over an hour; ${u.notModified} answered 304)`);
  process.exitCode = ok ? 0 : 1;
} finally {
  await gh.close();
  f.cleanup();
}
