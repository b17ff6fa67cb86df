// Notifications carry Ratchet's own words only: a token a sandboxed gate prints (or a file name the agent chose) never
// reaches an ntfy topic or a webhook, which Ratchet reaches from its own process where the sandbox cannot.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookPayload } from '../../shared/notify';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { startCaptureServer, type CaptureServer } from '../engine/notify/testing/capture-server';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { say, turn } from '../engine/testing/fixture-project';
import { cli } from './testing/run-cli';

let scripted: ScriptedServer | undefined;
let hook: CaptureServer | undefined;
afterEach(async () => {
  await scripted?.close();
  await hook?.close();
  scripted = undefined;
  hook = undefined;
});

const TOKEN = 'tok_9f3c1a77e2b54d0c';
/** The agent's shell writes the token (a secret it could read) where the gate prints it from. */
const plant = (): ScriptResponse[] => [turn({ type: 'tool_use', name: 'bash', input: { command: `printf '${TOKEN}\\n' > leaked-${TOKEN}.txt` } }), say('done')];

async function leakyRun(gate: string, extra: string, attempts: number) {
  hook = await startCaptureServer();
  scripted = await startScriptedServer({
    script: {
      rules: Array.from({ length: attempts }, plant)
        .flat()
        .map((response) => ({ times: 1, response })),
    },
  });
  const repo = makeRepo({ 'README.md': '# r\n' });
  const wf = join(tempDir('ratchet-wf-'), 'ratchet.yml');
  writeFileSync(
    wf,
    `gates: { test: ${JSON.stringify(gate)} }
${extra}
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
notify: { ntfy: "${hook.url}/topic", webhook: "${hook.url}/hook" }
steps:
  - title: Plant a token
`,
  );
  const env = { RATCHET_HOME: join(tempDir('ratchet-home-'), 'home'), ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: scripted.url };
  const r = await cli(['run', repo, '--workflow', wf, '--task', 'Leak test', '--yes', '--json'], env);
  await hook.waitFor(2);
  return { r, requests: hook.requests };
}

describe('notifications say only what Ratchet itself knows', () => {
  it('a gate that prints a token it read: the failed run is announced with its step, class and counts, and neither target receives the token', async () => {
    const { r, requests } = await leakyRun(`cat leaked-*.txt; echo 'not ok 1 - token'; exit 1`, 'max_retries: 0', 1);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).status).toBe('failed');
    const ntfy = requests.find((q) => q.path === '/topic')!;
    const webhook = WebhookPayload.parse(JSON.parse(requests.find((q) => q.path === '/hook')!.body));
    expect(ntfy.body).toMatch(
      /^Run 'Leak test' failed at step 1 'Plant a token' after 1 attempt \((\$[\d.]+|cost unknown)\): Test failure\. Next: ratchet retry \S+$/,
    );
    expect(webhook).toMatchObject({ event: 'run.failed', status: 'failed', step: 1, attempts: 1, message: ntfy.body });
    for (const q of requests) expect(JSON.stringify([q.headers, q.body])).not.toContain(TOKEN);
  });

  it("a gate whose output Ratchet cannot classify (the run needs you): the message names the class, never the gate's own last line", async () => {
    const { r, requests } = await leakyRun(`cat leaked-*.txt; exit 3`, 'limits: { unknown: 0 }', 1);
    expect(JSON.parse(r.out).status).toBe('paused');
    const ntfy = requests.find((q) => q.path === '/topic')!;
    expect(ntfy.body).toMatch(/^Run 'Leak test' needs you at step 1 'Plant a token' \((\$[\d.]+|cost unknown)\): Unknown error\. Next: /);
    for (const q of requests) expect(JSON.stringify([q.headers, q.body])).not.toContain(TOKEN);
  });
});
