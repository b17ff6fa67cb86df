// setup.network in a real run: reachable while setup runs, not from the gates. Its own file (its own process): once an
// engine of a process released the sandbox, later engines of that process get no network proxy at all (the library's
// reset keeps its config, so os-sandbox never initialises it again) — which would make this test pass or fail by order.
import { createServer } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { makeRepo } from '../testing/temp-repo';
import { closeEngine, envEngine, runWorkflow } from '../testing/worktree-env-fixtures';

const AGENT = `agent: { kind: command, command: ["sh", "-c", "date +%s%N > work.txt"] }`;
let engine: Engine;
afterEach(async () => {
  if (engine) await closeEngine(engine);
});

it.skipIf(!SANDBOX_AVAILABLE)(
  `reaches setup.network during setup only: the gates cannot${SANDBOX_AVAILABLE ? '' : ` — skipped: ${NO_SANDBOX_REASON}`}`,
  async () => {
    // A stand-in registry on this machine, reached through the sandbox's proxy as a registry host would be.
    const server = createServer((_req, res) => res.end('a tarball\n'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const fetch = `curl -sSf --max-time 10 --noproxy '' -x $HTTP_PROXY http://127.0.0.1:${port}/`;
    try {
      engine = envEngine();
      const repo = makeRepo();
      const r = await runWorkflow(
        engine,
        repo,
        `
setup: { run: "${fetch} > fetched.txt", network: ["127.0.0.1:${port}"] }
gates: { test: "grep -q tarball fetched.txt && if ${fetch}; then echo the gate reached the registry; exit 1; fi" }
${AGENT}
steps: [{ title: one }]
`,
      );
      expect(`${r.doc.status}: ${r.doc.reason}`).toBe('succeeded: null');
      expect(r.doc.environment?.baseline?.gates[0]).toMatchObject({ passed: true });
    } finally {
      server.close();
    }
  },
);
