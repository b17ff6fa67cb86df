// `ratchet list [--json]`: the store alone (no engine, agent or sandbox loaded), so listing runs starts at once.
import { hostname } from 'node:os';
import { defaultHome, listStoredRuns } from '../engine/light';
import { parse, UsageError, type CliIo } from './cli-kit';

/** What the CLI says when SQLite reported the database damaged and it was moved aside. */
export function movedAsideNotice(path: string): string {
  return `The database could not be opened and was moved aside to ${path}; a new one was created.\nYour runs are not lost: \`ratchet recover <repo>\` rebuilds them from each repository's branches (run it once per repository).\n`;
}

export function cmdList(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet list` takes no arguments.');
  const { runs, movedAside } = listStoredRuns(defaultHome(io.env), { pid: process.pid, host: hostname() }, Date.now());
  if (movedAside) io.stderr.write(movedAsideNotice(movedAside));
  if (values.json) {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (!runs.length) io.stdout.write('No runs yet. Start one with `ratchet run <repo> --workflow <file>`.\n');
  for (const r of runs)
    io.stdout.write(`${r.id}  ${r.status.padEnd(16)} ${r.createdAt}  ${r.branch}  ${r.repo}${r.checked === false ? '  (unchecked)' : ''}\n`);
  return 0;
}
