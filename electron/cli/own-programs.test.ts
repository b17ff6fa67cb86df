// Ratchet's own programs outside the sandbox are its own: a relative PATH entry (`node_modules/.bin`, `.`) never lets
// the agent's files stand in for Ratchet's git or the sandbox's launcher. A real `ratchet run` whose scripted agent
// plants `node_modules/.bin/git` and `node_modules/.bin/bwrap` in its worktree.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { fixtureProject, queue, say, turn } from '../engine/testing/fixture-project';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { tempDir } from '../engine/testing/temp-repo';
import { whichIn } from '../engine/process/which';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;
const originalPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = originalPath;
  await server?.close();
  server = undefined;
});

/** A stand-in for `program` that leaves `marker` behind, then runs the real one (so the run still "succeeds"). */
const standIn = (program: string, marker: string) => `#!/bin/sh\necho ${program} >> '${marker}'\nexec '${whichIn(program)}' "$@"\n`;

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'relative PATH entries' : `relative PATH entries — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("with node_modules/.bin, ./bin, . and an empty entry on PATH, the agent's git and bwrap never run as Ratchet's own", async () => {
    const marker = join(realpathSync(tempDir('ratchet-own-')), 'stand-in-ran');
    const p = fixtureProject();
    writeFileSync(
      p.workflowFile,
      `gates:
  check: "true"
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 5 }
max_retries: 0
flaky_check: false
steps:
  - title: Do the work
`,
    );
    const plant = [
      'mkdir -p node_modules/.bin bin',
      ...['git', 'bwrap'].flatMap((prog) =>
        ['node_modules/.bin', 'bin', '.'].map((dir) => `cat > ${dir}/${prog} <<'EOF'\n${standIn(prog, marker)}EOF\nchmod +x ${dir}/${prog}`),
      ),
      'echo work > work.txt',
    ].join('\n');
    server = await startScriptedServer({ script: { rules: queue(turn({ type: 'tool_use', name: 'bash', input: { command: plant } }), say('done')) } });
    const PATH = ['node_modules/.bin', './bin', '.', '', originalPath].join(':');
    process.env.PATH = PATH;
    const env = { PATH, RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    // The agent did plant them (the sandbox lets it write its worktree)…
    expect(existsSync(join(doc.worktree, 'node_modules', '.bin', 'git'))).toBe(true);
    // …and none ran: Ratchet's commit, snapshot and status used the real git, the gate the real bwrap.
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    expect(doc.status).toBe('succeeded');
  });
});
