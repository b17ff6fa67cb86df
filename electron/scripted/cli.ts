// Command line for the scripted server: `tsx electron/scripted/cli.ts --script demo.json [--port N]`.
import { pathToFileURL } from 'node:url';
import { loadScriptFile } from './script-schema';
import { startScriptedServer, type ScriptFn, type ScriptedServer } from './server';

const USAGE = 'usage: scripted-server [--port N] [--script <file.json>]';

interface CliOptions {
  port: number;
  script: string | null;
}

function parseArgs(argv: readonly string[]): CliOptions {
  const opts: CliOptions = { port: 0, script: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (name !== '--port' && name !== '--script') throw new Error(`unknown argument ${arg}\n${USAGE}`);
    if (value === undefined || value === '') throw new Error(`${name} needs a value\n${USAGE}`);
    if (name === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0-65535, got ${value}`);
      opts.port = port;
    } else {
      opts.script = value;
    }
  }
  return opts;
}

// Without a script the server still answers, so a smoke run shows the wiring works.
const echo: ScriptFn = (req) => ({ content: [{ type: 'text', text: `scripted echo: ${req.lastUserText.slice(0, 200)}` }] });

/**
 * Starts the server from command-line arguments (without the node and script paths) and prints
 * `listening on <url>`. SIGINT/SIGTERM close it; the process then exits on its own once nothing else runs.
 */
export async function startFromCli(argv: readonly string[], out: { write(s: string): unknown } = process.stdout): Promise<ScriptedServer> {
  const opts = parseArgs(argv);
  const script = opts.script ? loadScriptFile(opts.script) : echo;
  const server = await startScriptedServer({ script, port: opts.port });
  const closeServer = server.close;
  // Our handlers replace Node's default exit-on-signal, so they must not outlive the server.
  const detach = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const stop = (): void => {
    detach();
    void closeServer();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  out.write(`listening on ${server.url}\n`);
  return {
    ...server,
    close: () => {
      detach();
      return closeServer();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  startFromCli(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 2;
  });
}
