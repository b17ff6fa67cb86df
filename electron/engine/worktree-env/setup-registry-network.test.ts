// setup.network's `registry:<ecosystem>` entries in a real run: the registry the user's tool is configured with is
// reachable while setup runs. Its own file (its own process): see setup-network.test.ts.
import { createServer } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { makeRepo } from '../testing/temp-repo';
import { closeEngine, envEngine, runWorkflow } from '../testing/worktree-env-fixtures';
import { execFileSync } from 'node:child_process';

const hasNpm = (() => {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let engine: Engine;
afterEach(async () => {
  if (engine) await closeEngine(engine);
});

it.skipIf(!SANDBOX_AVAILABLE || !hasNpm)(
  `reaches registry:npm during setup: the host npm is configured with${SANDBOX_AVAILABLE ? '' : ` — skipped: ${NO_SANDBOX_REASON}`}`,
  async () => {
    // A stand-in registry on this machine, npm configured to use it (as a company registry in ~/.npmrc would be).
    const server = createServer((_req, res) => res.end('a tarball\n'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const fetch = `curl -sSf --max-time 10 --noproxy '' -x $HTTP_PROXY http://127.0.0.1:${port}/`;
    try {
      engine = envEngine({ ...process.env, npm_config_registry: `http://127.0.0.1:${port}/` });
      const repo = makeRepo();
      const r = await runWorkflow(
        engine,
        repo,
        `
setup: { run: "${fetch} > fetched.txt", network: ["registry:npm"] }
gates: { test: "grep -q tarball fetched.txt" }
agent: { kind: command, command: ["sh", "-c", "date +%s%N > work.txt"] }
steps: [{ title: one }]
`,
      );
      expect(`${r.doc.status}: ${r.doc.reason}`).toBe('succeeded: null');
      expect(r.doc.environment?.setup).toMatchObject({ outcome: 'ok' });
    } finally {
      server.close();
    }
  },
);
