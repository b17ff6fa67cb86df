// `ratchet mcp`: Ratchet as an MCP server over stdio, for another agent (Claude Code, any MCP client) to hand it runs.
// Runs execute in this process, as the app's do; closing the connection (or Ctrl-C) pauses them, resumable.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEngine, createService, defaultHome } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';
import { createMcpServer } from './mcp-tools';
import { teamUrlOf } from './team-url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The package's version, as the server names itself to its client. */
export const ratchetVersion = (): string => (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export async function cmdMcp(args: string[], io: CliIo, streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = process): Promise<number> {
  const team = teamUrlOf(args, io.env);
  const { values, positionals } = parse(team.rest, { 'no-sandbox': { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet mcp` takes no positional arguments: an MCP client starts it and speaks on its stdin and stdout.');
  // stdout carries the protocol: every word for a person goes to stderr.
  if (values['no-sandbox'])
    io.stderr.write(
      "ratchet: WARNING: the OS sandbox is OFF (--no-sandbox): the agent's shell, gates and command agents can write anywhere you can, read your keys and reach any host.\n",
    );
  const env = { ...io.env, ...(team.url ? { RATCHET_TEAM_URL: team.url } : {}) };
  const engine = createEngine({ home: defaultHome(io.env), env, sandbox: values['no-sandbox'] ? 'off' : 'auto' });
  const service = createService(engine, { host: 'headless', version: ratchetVersion(), env });
  const server = createMcpServer({ handlers: service.handlers, checkRunTrust: engine.checkRunTrust, team: Boolean(team.url), version: ratchetVersion() });
  const transport = new StdioServerTransport(streams.stdin as never, streams.stdout as never);
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    streams.stdin.once('end', () => done());
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  await server.connect(transport);
  io.stderr.write(`ratchet mcp: serving on stdio${team.url ? ' (team mode)' : ''}; runs started here pause, resumable, when the client disconnects.\n`);
  await closed;
  await service.close();
  await server.close();
  await engine.settled();
  engine.close();
  await engine.releaseSandbox();
  return 0;
}
