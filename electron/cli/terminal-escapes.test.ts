// Nothing the model, its tool input, a gate or a repository wrote reaches the user's terminal as a control sequence:
// `ratchet run`'s progress, `ratchet status` and `ratchet list` print it with its control characters replaced.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { say, turn } from '../engine/testing/fixture-project';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

let scripted: ScriptedServer | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

const ESC = '\u001b';
const BEL = '\u0007';
// A window title, the clipboard (OSC 52), the cursor up and the line erased, a C1 CSI (0x9b) clearing the screen, a bare CR.
const HOSTILE = `${ESC}]0;pwned${BEL}${ESC}]52;c;ZXZpbA==${BEL}${ESC}[1A${ESC}[2K\u009b2J\rlooks innocent`;
/** Any control character but newline and tab. */
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('what the CLI prints from the model, tools, gates and repositories', () => {
  it('run, status and list replace control characters (ESC, BEL, OSC 52, CSI, C1, CR) and keep newlines and tabs', async () => {
    scripted = await startScriptedServer({
      script: {
        rules: [turn({ type: 'tool_use', name: 'bash', input: { command: `echo '${HOSTILE}' > note.txt` } }), say(`Done.${HOSTILE}\tend`)].map((response) => ({
          times: 1,
          response,
        })),
      },
    });
    // A repository in a folder whose name carries an escape, as a clone of a hostile remote's name could.
    const made = makeRepo({ 'README.md': '# r\n' });
    const repo = join(tempDir('ratchet-esc-'), `repo${ESC}]0;x${BEL}`);
    renameSync(made, repo);
    const wf = join(tempDir('ratchet-wf-'), 'ratchet.yml');
    writeFileSync(
      wf,
      `gates:\n  test: ${JSON.stringify(`printf '${HOSTILE.replace(/\r/g, '\\r')}\\n'; exit 1`)}\nmax_retries: 0\nlimits: { unknown: 0 }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nflaky_check: false\nsteps:\n  - title: Hostile output\n`,
    );
    const env = { RATCHET_HOME: join(tempDir('ratchet-home-'), 'home'), ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: scripted.url };

    const run = await cli(['run', repo, '--workflow', wf, '--task', 'Escapes', '--yes'], env);
    expect(run.err).toContain('looks innocent');
    expect(run.err).toContain('pwned');
    expect(run.err).not.toMatch(CONTROL);
    const id = /run (\S+):/.exec(run.err)![1]!;

    const status = await cli(['status', id], env);
    expect(status.code).toBe(0);
    expect(status.out).toContain('\n');
    expect(status.out).toContain('looks innocent');
    expect(status.out + status.err).not.toMatch(CONTROL);

    const list = await cli(['list'], env);
    expect(list.out).toContain(id);
    expect(list.out).not.toMatch(CONTROL);

    // Machine-readable output stays exact: JSON escapes the characters, so nothing is lost.
    const json = await cli(['status', id, '--json'], env);
    expect(json.out).not.toMatch(CONTROL);
    expect(JSON.parse(json.out).repo).toBe(repo);
  });
});
