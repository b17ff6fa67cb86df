// `ratchet serve [--port N] [--demo]`: the headless host — the app in a browser, on 127.0.0.1 with a per-launch token.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, defaultHome, createService } from '../engine';
import { startHost } from '../host/host';
import { parse, UsageError, type CliIo } from './cli-kit';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export async function cmdServe(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { port: { type: 'string', short: 'p' }, demo: { type: 'boolean' }, 'no-sandbox': { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet serve` takes no positional arguments.');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('`--port` takes a port number (0 picks a free one).');
  // Imported on demand: the demo stays out of the installed app's bundle (electron-builder.yml leaves its chunk out).
  const demo = values.demo ? await (await import('../host/demo')).startDemo(io.env) : null;
  const env = { ...(demo?.env ?? io.env) };
  const home = demo ? join(demo.work, 'home') : defaultHome(io.env);
  const engine = createEngine({ home, env, sandbox: values['no-sandbox'] ? 'off' : 'auto' });
  if (values['no-sandbox'])
    io.stderr.write(
      "ratchet: WARNING: the OS sandbox is OFF (--no-sandbox): the agent's commands can write anywhere you can, read your keys and reach any host.\n",
    );
  if (demo) engine.upsertRepo(demo.repo, 'calc');
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const service = createService(engine, { host: 'headless', version, demo: Boolean(demo), env });
  const staticDir = join(ROOT, 'out', 'renderer');
  const host = await startHost({ service, staticDir, port, home });
  if (!existsSync(join(staticDir, 'index.html'))) io.stderr.write('The app is not built yet: run `npm run build` (the API works meanwhile).\n');
  if (demo) {
    io.stderr.write(`DEMO — a scripted agent, not Claude; demo repository: ${demo.repo}\n`);
    // The demo shows what the README promises by itself: a run that fails a test and retries, then one that fails for good.
    const runs = await (await import('../host/demo')).startDemoRuns(service, demo);
    io.stderr.write(`Demo run ${runs.first} started; a second one starts when it ends.\n`);
  }
  io.stdout.write(`Ratchet is at ${host.url}\n`);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  io.stderr.write('Stopping: running runs pause and can be resumed.\n');
  await service.close();
  await host.close();
  await demo?.server.close();
  engine.close();
  return 0;
}
