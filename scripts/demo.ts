// `npm run demo`: a scripted agent (no API key needed) runs a 3-step plan on a copy of the demo repository; step 2 fails its test once and the retry fixes it.
// With --app it opens the app instead (Electron, or the headless host in a browser) on the same demo.
import { join } from 'node:path';
import { main } from '../electron/cli/main';
import { startDemo } from '../electron/host/demo';

if (process.argv.includes('--app')) {
  process.exitCode = await main(['serve', '--demo'], { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
} else {
  const demo = await startDemo(process.env);
  const home = process.env.RATCHET_HOME ?? join(demo.work, 'home');
  process.stderr.write(
    `DEMO — a scripted agent, not Claude: no API key is used and nothing leaves this machine.\nRepository: ${demo.repo}\nState: ${home}\n\n`,
  );
  // The demo's own workflow file ships with Ratchet (not written by an agent): trusted by the demo that starts it,
  // as `npm run demo -- --app` does, so a newcomer's first run is not refused by workspace trust.
  const code = await main(['run', demo.repo, '--yes', '--trust'], {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: { ...demo.env, RATCHET_HOME: home },
  });
  await demo.server.close();
  process.stderr.write(`\nSee the branch: git -C ${demo.repo} log --oneline --all\nSee the run:    RATCHET_HOME=${home} npx ratchet list\n`);
  process.exitCode = code;
}
