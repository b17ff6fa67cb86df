// A running attempt's diff: what the agent changed so far, read from the worktree without touching its
// index, instead of "Loading the diff…" for the attempt's whole length; an interrupted attempt shows what it left.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { create, say, turn } from '../testing/fixture-project';
import { makeRepo } from '../testing/temp-repo';
import { callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();

describe('runs.attemptDiff of an attempt under way', () => {
  it('shows the change the agent made so far, and none before it made one, without touching the worktree’s index', async () => {
    let wrote = false;
    // The first turn writes a file; the next answer takes long enough to look at the attempt while it runs.
    const server = await harness.server({
      script: (req) => {
        const last = (req.body as { messages: Array<{ content: unknown }> }).messages.at(-1);
        const toolResult = Array.isArray(last?.content) && (last.content as Array<{ type: string }>).some((b) => b.type === 'tool_result');
        if (!toolResult) return { ...turn(create('src/health.js', 'export const health = 100;\n')), delayMs: 300 };
        wrote = true;
        return { ...say('done'), delayMs: 60_000 };
      },
    });
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const engine = harness.engine(env);
    const service = harness.service(engine, { env });
    const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: makeRepo(),
      title: 'Live diff',
      steps: [{ title: 'Add health' }],
      gates: { ok: 'true' },
    });
    await until(() => engine.store.getAttempts(runId).length === 1);
    const before = await callValue<{ diff: string; live: boolean }>(service, 'runs.attemptDiff', { runId, step: 1, n: 1, against: 'step' });
    expect(before).toMatchObject({ diff: '', live: true });
    await until(() => wrote);
    const during = await callValue<{ diff: string; live: boolean }>(service, 'runs.attemptDiff', { runId, step: 1, n: 1, against: 'step' });
    expect(during.live).toBe(true);
    expect(during.diff).toContain('+export const health = 100;');
    expect(during.diff).toContain('src/health.js');
    // Ratchet's look left the worktree as the agent has it: nothing staged.
    const worktree = engine.store.getRun(runId)!.worktree;
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: worktree, encoding: 'utf8' })).toBe('?? src/\n');
  });
});
