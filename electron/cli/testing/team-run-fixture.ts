// Test helper: one team per test for the team-run tests (electron/cli/team-run*.test.ts) — a migrated database, the
// scripted model, the project with its remote, `ratchet worker` processes started on demand — and the CLI's team status
// polled until a condition holds. The agent reads git history and status in its sandboxed shell before it works
// (readsGitFirst), as every real one does.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach } from 'vitest';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptResponse } from '../../scripted/server';
import { readsGitFirst, startWorker, teamDatabase, teamRepo, tempFile, type WorkerProcess } from '../../engine/testing/team-fixtures';
import { SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { cli } from './run-cli';

/** A workflow of `steps` steps; step 2's gate fails while the file `flag` exists. */
export const WORKFLOW = (steps: number, flag?: string) => `gates:
  plain: "true"
  guarded: ${JSON.stringify(flag ? `if [ -f ${flag} ]; then echo "not ok 1 - blocked by flag"; exit 1; fi; echo ok` : 'true')}
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
limits: { test_failure: 0 }
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
${Array.from({ length: steps }, (_, i) => `  - title: Step number ${i + 1}\n    gates: [${i + 1 === 2 ? 'guarded' : 'plain'}]`).join('\n')}
`;

/** What the test made, undone after it (newest first) by the afterEach that teamRunFixture registers. */
export const cleanups: Array<() => Promise<unknown> | unknown> = [];

/** Registers the file's afterEach that undoes each test's set-up (workers killed, server closed, database dropped). */
export function teamRunFixture(): void {
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
}

/**
 * One test's team: a migrated database (from the template), the scripted model (each answer after `thinkMs`, costing
 * `inputTokens`; `first` may answer a request before the agent that reads git history first), the project and its remote.
 */
export async function setUp(workflow: string, thinkMs = 0, inputTokens = 0, first?: (req: RecordedRequest) => ScriptResponse | null) {
  const db = await teamDatabase({ migrated: true });
  const server: ScriptedServer = await startScriptedServer({
    script: async (req) => {
      if (thinkMs) await sleep(thinkMs);
      const answer = first?.(req) ?? (await readsGitFirst(req));
      return inputTokens ? { ...answer, usage: { input_tokens: inputTokens, output_tokens: 10 } } : answer;
    },
  });
  const repo = teamRepo(workflow);
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, RATCHET_WORKER_GONE_MS: '3000' };
  const workers: WorkerProcess[] = [];
  cleanups.push(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await server.close();
    await db.drop();
  });
  const worker = (args: string[] = []) => {
    const w = startWorker(db.url, env, [...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']), ...args]);
    workers.push(w);
    return w;
  };
  const local = { RATCHET_HOME: tempFile('x', '').replace(/x$/, 'home'), ...env };
  const status = async (id: string) => JSON.parse((await cli(['status', id, '--team', db.url, '--json'], local)).out) as TeamDoc;
  /** Polls the run's team status until `done` holds (or a minute passes). */
  const until = async (id: string, done: (d: TeamDoc) => boolean): Promise<TeamDoc> => {
    let d = await status(id);
    for (let i = 0; i < 480 && !done(d); i++) {
      await sleep(125);
      d = await status(id);
    }
    return d;
  };
  return { db, server, repo, env, worker, local, status, until };
}

export interface TeamDoc {
  id: string;
  costUsd: number | null;
  status: string;
  reasonCode: string | null;
  branch: string;
  steps: Array<{ status: string; commit: string | null; attempts: Array<{ outcome: string }> }>;
  team: { worker: string | null };
}
