// A gate's `report:` file is Ratchet's to delete and read only inside the worktree: an agent's `ln -s /elsewhere reports`
// neither deletes a file the sandbox cannot write nor has Ratchet read one for it (the real CLI, the sandbox on).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { say, turn } from '../engine/testing/fixture-project';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

let scripted: ScriptedServer | undefined;
let writer: NodeJS.Timeout | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  clearInterval(writer);
});

const SECRET = 'secret_6b1d0e94c2aa';
const JUNIT = `<?xml version="1.0"?><testsuite name="s" tests="1" failures="1"><testcase classname="c" name="${SECRET}"><failure message="${SECRET}">${SECRET}</failure></testcase></testsuite>\n`;

/** Every byte Ratchet kept under its home (the database and its journal included), as text. */
function everythingKept(dir: string): string {
  let all = '';
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) all += everythingKept(p);
    else if (e.isFile()) all += readFileSync(p).toString('latin1');
  }
  return all;
}

async function runWithLink(elsewhere: string) {
  const link: ScriptResponse = turn({ type: 'tool_use', name: 'bash', input: { command: `ln -s ${elsewhere} reports && echo linked > note.txt` } });
  scripted = await startScriptedServer({
    script: {
      rules: [link, say('done'), turn({ type: 'tool_use', name: 'bash', input: { command: 'echo again >> note.txt' } }), say('done')].map((response) => ({
        times: 1,
        response,
      })),
    },
  });
  const repo = makeRepo({ 'README.md': '# r\n' });
  const wf = join(tempDir('ratchet-wf-'), 'ratchet.yml');
  writeFileSync(
    wf,
    `gates:
  test: { run: "echo 'not ok 1 - adds'; exit 1", report: reports/junit.xml }
max_retries: 1
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
steps:
  - title: Link the reports folder
`,
  );
  const home = join(tempDir('ratchet-home-'), 'home');
  const r = await cli(['run', repo, '--workflow', wf, '--task', 'Links', '--yes', '--json'], {
    RATCHET_HOME: home,
    ANTHROPIC_API_KEY: 'sk-test',
    ANTHROPIC_BASE_URL: scripted.url,
  });
  return { r, home };
}

describe("a gate's report path through the agent's symbolic link", () => {
  it('is not deleted before the gate: /elsewhere/junit.xml, which the sandbox cannot write, is still there after the run', async () => {
    const elsewhere = tempDir('ratchet-elsewhere-');
    writeFileSync(join(elsewhere, 'junit.xml'), JUNIT);
    const { r } = await runWithLink(elsewhere);
    expect(JSON.parse(r.out).steps[0].attempts.length, r.err).toBeGreaterThan(0);
    expect(existsSync(join(elsewhere, 'junit.xml'))).toBe(true);
    expect(readFileSync(join(elsewhere, 'junit.xml'), 'utf8')).toBe(JUNIT);
  });

  it('is not read after the gate: a fresh report outside the worktree reaches neither the store nor the next prompt', async () => {
    // Outside the sandbox, a tool of the user's keeps this file written (were it deleted, it is back at once), so it is
    // always newer than the gate: only where it is keeps Ratchet from reading it.
    const elsewhere = tempDir('ratchet-elsewhere-');
    const file = join(elsewhere, 'junit.xml');
    writeFileSync(file, JUNIT);
    writer = setInterval(() => existsSync(file) || writeFileSync(file, JUNIT), 5);
    const { r, home } = await runWithLink(elsewhere);
    const doc = JSON.parse(r.out);
    expect(doc.steps[0].attempts.length, r.err).toBe(2);
    expect(r.out + r.err).not.toContain(SECRET);
    expect(JSON.stringify(scripted!.requests.map((q) => q.body))).not.toContain(SECRET);
    expect(everythingKept(home)).not.toContain(SECRET);
  });
});
