// The e2e specs' scripted agent holds the answers a spec asks it to hold (harness.ts): what lets a spec keep a run running
// or mid-step on a condition instead of pacing every answer and hoping the machine keeps up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofTasks, scriptedAgent, startOfStep, taskOf, until, type ScriptedAgent } from './harness';
import type { RecordedRequest } from '../electron/scripted/server';

let agent: ScriptedAgent;

beforeAll(async () => {
  agent = await scriptedAgent();
});

afterAll(async () => {
  await agent?.close();
});

/** Asks the agent as the engine does: the task context, then step `step`'s prompt, in the first user turn. */
function ask(title: string, step: number): { answered: () => boolean; done: Promise<number> } {
  let answered = false;
  const text = `# Task: ${title}\n\n## Plan (latest revision)\n\n## Step ${step} of 3: Add add()\n\nWrite src/add.mjs.`;
  const done = fetch(`${agent.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'e2e-key', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: [{ type: 'text', text }] }] }),
  }).then((r) => {
    answered = true;
    return r.status;
  });
  return { answered: () => answered, done };
}

describe('the scripted agent of the e2e specs', () => {
  it('reads the task of a request from its context, title for title', () => {
    const req = (text: string) => ({ body: { messages: [{ role: 'user', content: [{ type: 'text', text }] }] }, lastUserText: text }) as RecordedRequest;
    expect(taskOf(req('# Task: Calculator, queued\n\nmore'))).toBe('Calculator, queued');
    expect(ofTasks('Calculator')(req('# Task: Calculator, queued\n'))).toBe(false);
    expect(ofTasks('Calculator', 'Other')(req('# Task: Calculator\n'))).toBe(true);
    expect(startOfStep(2)(req('# Task: X\n\n## Step 2 of 3: Add mul()'))).toBe(true);
    expect(startOfStep(2)(req('# Task: X\n\n## Step 1 of 3: Add add()'))).toBe(false);
  });

  it('holds the requests it is told to, lets the others through, and answers the held ones once released', async () => {
    agent.hold(ofTasks('Calculator'));
    const held = ask('Calculator', 1);
    await expect(ask('Calculator again', 1).done).resolves.toBe(200);
    await until(() => agent.waiting() === 1, { ms: 10_000, describe: 'the Calculator request to wait' });
    expect(held.answered()).toBe(false);

    // Holding something else lets the waiting one go on.
    agent.hold(startOfStep(2));
    await expect(held.done).resolves.toBe(200);
    const step2 = ask('Calculator', 2);
    await until(() => agent.waiting() === 1, { ms: 10_000, describe: "step 2's request to wait" });
    expect(step2.answered()).toBe(false);
    agent.release();
    await expect(step2.done).resolves.toBe(200);
    expect(agent.waiting()).toBe(0);
  });
});
