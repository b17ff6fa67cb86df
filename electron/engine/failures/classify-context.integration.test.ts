// Integration: the step runner hands the classifier the attempt's diff and the worktree's manifests,
// so an import the agent's own change added is retried as the code's problem, through the scripted server, real git
// and a real `node --test` gate.
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { createEngine } from '../engine';
import { create, fixtureProject, queue, say, turn } from '../testing/fixture-project';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WORKFLOW = `gates:\n  test: { run: "node --test", timeout: 60 }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nflaky_check: false\nsteps:\n  - title: Labels\n`;
const TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { label } from '../src/label.mjs';\ntest('pads', () => { assert.equal(label(7), '#0007'); });\n";

describe('an import that nothing provides', () => {
  it("is the agent's to fix when its own change added it: retried as a compilation error that says so", async () => {
    const p = fixtureProject(WORKFLOW);
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn(
            create('src/label.mjs', "import leftPad from 'left-pad';\nexport const label = (n) => `#${leftPad(n, 4, '0')}`;\n"),
            create('test/label.test.mjs', TEST),
          ),
          say('done'),
          turn(create('src/label.mjs', "export const label = (n) => `#${String(n).padStart(4, '0')}`;\n")),
          say('done'),
        ),
      },
    });
    const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }, sandbox: TEST_SANDBOX_MODE });
    try {
      const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
      const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
      expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['compilation_error', null]);
      expect(doc.steps[0]!.attempts[0]!.message).toMatch(/^The attempt's change imports 'left-pad' .*which is not installed and not declared in package\.json/);
      expect(doc.status).toBe('succeeded');
      const retryPrompt = server.requests.map((r) => r.lastUserText ?? '').find((t) => t.includes('left-pad')) ?? '';
      expect(retryPrompt).toContain("Your change imports 'left-pad', which exists nowhere here");
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
  });
});
