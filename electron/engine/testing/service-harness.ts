// The harness of the tests that drive the service as a host does: a scripted API server, an engine and a service, each
// closed after every test (the service, then the engine's sandbox, then the server), so no test file keeps its own copy.
import { afterEach } from 'vitest';
import type { EventName } from '../../../shared/contract';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { createEngine, type Engine } from '../engine';
import { createService, type Service, type ServiceOptions } from '../service/service';
import { byStep } from './recovery-fixtures';
import { TEST_SANDBOX_MODE } from './sandbox-mode';
import { tempDir } from './temp-repo';

type ServerOptions = Parameters<typeof startScriptedServer>[0];
type HarnessServiceOptions = Omit<ServiceOptions, 'host' | 'version'> & Partial<Pick<ServiceOptions, 'host' | 'version'>>;

/** Call once at a test file's top level: what its tests start through it is closed after each of them. */
export function serviceHarness() {
  let server: ScriptedServer | undefined;
  let service: Service | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await engine?.releaseSandbox();
    engine = undefined;
    await server?.close();
    server = undefined;
  });
  const h = {
    /** A scripted Anthropic API (step by step, unless a script is given). */
    async server(opts: ServerOptions = { script: byStep }): Promise<ScriptedServer> {
      server = await startScriptedServer(opts);
      return server;
    },
    /** An engine on a fresh home (unless given), in the tests' sandbox mode. */
    engine(env: NodeJS.ProcessEnv, home: string = tempDir()): Engine {
      engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home, env });
      return engine;
    },
    /** The headless host's service over `e`. */
    service(e: Engine, opts: HarnessServiceOptions): Service {
      service = createService(e, { host: 'headless', version: '0.1.0', ...opts });
      return service;
    },
    /** The usual host: a scripted server, an engine with a key and the server's URL, its service, and the events the service emits. */
    async start(opts: { server?: ServerOptions; home?: string; service?: Partial<HarnessServiceOptions> } = {}) {
      const s = await h.server(opts.server);
      const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: s.url };
      const e = h.engine(env, opts.home);
      const svc = h.service(e, { env, ...opts.service });
      const events: Array<{ name: EventName; payload: unknown }> = [];
      svc.subscribe((name, payload) => events.push({ name, payload }));
      return { server: s, env, engine: e, service: svc, events };
    },
  };
  return h;
}
