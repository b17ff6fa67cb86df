// Every command answers --help; `run --description` gives the task its description (text or @file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine } from '../engine/engine';
import { create, fixtureProject, queue, say, testFile, turn } from '../engine/testing/fixture-project';
import { tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const COMMANDS = ['run', 'status', 'list', 'check', 'retry', 'resume', 'plan', 'recover', 'serve'];

describe('--help', () => {
  it.each(COMMANDS)('`ratchet %s --help` prints its usage on stdout and exits 0', async (command) => {
    const home = join(tempDir(), 'home');
    for (const flag of ['--help', '-h']) {
      const r = await cli([command, flag], { RATCHET_HOME: home });
      expect(r.code).toBe(0);
      expect(r.out).toContain(`ratchet ${command}`);
      expect(r.out).toMatch(/^Usage:/);
      expect(r.err).toBe('');
    }
  });

  it('`ratchet help <command>` is the same as `<command> --help`', async () => {
    const r = await cli(['help', 'resume'], { RATCHET_HOME: join(tempDir(), 'home') });
    expect(r.code).toBe(0);
    expect(r.out).toContain('--budget');
  });
});

const ONE_STEP = `
gates:
  test: "node --test --test-reporter=tap"
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Add add()
`;

describe('ratchet run --description', () => {
  async function runWith(description: string) {
    const p = fixtureProject(ONE_STEP);
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n'), create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5))),
          say('Done.'),
        ),
      },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--description', description, '--yes', '--json'], env);
    return { p, r, env };
  }

  it('takes the text as the task description: it is stored and reaches the agent', async () => {
    const { p, r } = await runWith('Use integer maths only.');
    expect(r.code).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: {} });
    expect(engine.store.getTaskDescription(doc.id)).toBe('Use integer maths only.');
    engine.close();
    expect(JSON.stringify(server?.requests[0])).toContain('Use integer maths only.');
  });

  it('reads @file.md, and refuses a missing file with exit 2', async () => {
    const file = join(tempDir(), 'task.md');
    writeFileSync(file, '# Add\nAdd numbers.\n');
    const { p, r } = await runWith(`@${file}`);
    expect(r.code).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: {} });
    expect(engine.store.getTaskDescription(doc.id)).toBe('# Add\nAdd numbers.\n');
    engine.close();
    const missing = await cli(['run', p.repo, '--workflow', p.workflowFile, '--description', '@/nonexistent/task.md', '--yes'], {
      RATCHET_HOME: p.home,
      ANTHROPIC_API_KEY: 'k',
    });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('/nonexistent/task.md');
  });
});
