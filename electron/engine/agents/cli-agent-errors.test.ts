// Claude Code's own API errors, from its real recorded stream-json output, as the command agent classifies them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { classifyCliFailure } from './cli-agent-errors';
import { createCommandAgent } from './command-agent';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'claude-code');

/** Runs the command agent on a process that prints a recorded Claude Code output and exits 1, as Claude Code did. */
async function replay(name: string) {
  const file = join(FIXTURES, name);
  const agent = createCommandAgent({ command: ['sh', '-c', `cat '${file}'; exit 1`], promptVia: 'stdin', env: process.env });
  return agent.run({
    worktree: tempDir(),
    system: '',
    context: '',
    prompt: 'say hi',
    model: 'claude-sonnet-5-5',
    maxTurns: 5,
    maxTokens: 1000,
    session: 'new',
    sessionId: null,
    signal: new AbortController().signal,
    onUsage: () => undefined,
    onTranscript: () => undefined,
  } as never);
}

describe('Claude Code API errors (recorded output)', () => {
  it("a 429 is rate_limit, with the wait Claude Code used after the server's retry-after", async () => {
    expect(readFileSync(join(FIXTURES, 'api-error-429.stream.jsonl'), 'utf8')).toContain('"api_error_status":429');
    const r = await replay('api-error-429.stream.jsonl');
    expect(r.stop).toBe('error');
    expect(r.error).toMatchObject({ errorClass: 'rate_limit', status: 429, retriable: true, retryAfterS: 8 });
    expect(r.error?.message).toContain('API Error: Request rejected (429)');
  });

  it('a 529 overload and a 500 are api_error, retriable', async () => {
    expect((await replay('api-error-529.stream.jsonl')).error).toMatchObject({ errorClass: 'api_error', status: 529, retriable: true });
    expect((await replay('api-error-500.stream.jsonl')).error).toMatchObject({ errorClass: 'api_error', status: 500, retriable: true });
  });

  it('refusals are not retried, and a crash without a status stays a retriable api_error', () => {
    expect(classifyCliFailure({ status: 401, type: 'authentication_error', message: 'Invalid API key', lastRetryDelayMs: null })).toMatchObject({
      errorClass: 'api_error',
      retriable: false,
      message: expect.stringContaining('Check the API key'),
    });
    expect(classifyCliFailure({ status: null, type: null, message: 'the agent command exited with 139', lastRetryDelayMs: null })).toMatchObject({
      errorClass: 'api_error',
      retriable: true,
      retryAfterS: null,
    });
  });
});
