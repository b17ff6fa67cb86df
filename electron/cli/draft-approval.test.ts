// An agent-drafted plan waits in `waiting_approval` until approved, and such a run resumes to the approval.
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { create, fixtureProject, queue, say, testFile, turn } from '../engine/testing/fixture-project';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WORKFLOW = `
gates:
  test: "node --test --test-reporter=tap"
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: A placeholder the draft replaces
`;

describe('ratchet run --draft', () => {
  it('drafts a plan that waits for approval; resume without --approve does not run it; --approve runs it', async () => {
    const p = fixtureProject(WORKFLOW);
    server = await startScriptedServer({
      script: {
        rules: queue(
          say('## 1. Add add()\nWrite src/add.mjs exporting add(a, b) with a test.'),
          turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n'), create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5))),
          say('Done.'),
        ),
      },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--task', 'Calculator', '--draft', '--yes', '--json'], env);
    expect(r.code).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('waiting_approval');
    expect(doc.steps.map((s) => [s.title, s.status, s.attempts.length])).toEqual([['Add add()', 'pending', 0]]);
    expect(r.err).toContain(`ratchet resume ${doc.id} --approve`);
    // The approval screen lists each drafted step with its share of the estimate, then the run's estimate.
    expect(r.err).toMatch(/^ {2}1\. Add add\(\) {2}about \$[\d.]+, up to \$[\d.]+ · (under 1 min|\d+–\d+ min)$/m);
    expect(r.err).toMatch(/^Estimate: about \$.* · from the plan alone/m);
    expect(server.requests).toHaveLength(1);

    // Interrupted-run detection and a plain resume leave it waiting: nothing runs before approval.
    const list = await cli(['list'], env);
    expect(list.out).toContain('waiting_approval');
    const plain = await cli(['resume', doc.id, '--yes', '--json'], env);
    expect(plain.code).toBe(1);
    expect(plain.err).toContain('- Action: approve');
    expect(plain.err).toContain('The plan waits for your approval');
    expect(server.requests).toHaveLength(1);
    const status = StatusDocument.parse(JSON.parse((await cli(['status', doc.id, '--json'], env)).out));
    expect(status.status).toBe('waiting_approval');

    const approved = await cli(['resume', doc.id, '--approve', '--yes', '--json'], env);
    expect(approved.code).toBe(0);
    const done = StatusDocument.parse(JSON.parse(approved.out));
    expect(done.status).toBe('succeeded');
    expect(done.steps[0]).toMatchObject({ title: 'Add add()', status: 'succeeded' });
  });
});
