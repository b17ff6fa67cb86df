// `npm run demo`: a scripted agent (no API key needed) runs a 3-step plan on a copy of the demo repository; step 2 fails its test once and the retry fixes it.
import { cpSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../electron/cli/main';
import { loadScriptFile } from '../electron/scripted/script-schema';
import { startScriptedServer } from '../electron/scripted/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const work = mkdtempSync(join(tmpdir(), 'ratchet-demo-'));
const repo = join(work, 'calc');
cpSync(join(root, 'resources', 'demo-repo'), repo, { recursive: true });
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Ratchet Demo', '-c', 'user.email=demo@localhost', ...args], { cwd: repo, stdio: 'ignore' });
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-q', '-m', 'Demo calculator');

const server = await startScriptedServer({ script: loadScriptFile(join(root, 'resources', 'demo-script.json')) });
const home = process.env.RATCHET_HOME ?? join(work, 'home');
process.stderr.write(
  `DEMO — a scripted agent, not Claude: no API key is used and nothing leaves this machine.\n` +
    `Repository: ${repo}\nState: ${home}\n\n`,
);
const code = await main(['run', repo, '--yes'], {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: { ...process.env, RATCHET_HOME: home, ANTHROPIC_API_KEY: 'demo-key', ANTHROPIC_BASE_URL: server.url },
});
await server.close();
process.stderr.write(`\nSee the branch: git -C ${repo} log --oneline --all\nSee the run:    RATCHET_HOME=${home} npx ratchet list\n`);
process.exitCode = code;
