// Where DBOS's own log lines go: never to stdout (a CLI command's stdout is its answer, `--json` a document scripts
// parse). The client side (the CLI, the app) keeps only DBOS's errors; a worker also shows its warnings, on stderr.
import type { DLogger } from '@dbos-inc/dbos-sdk';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
import { migrateSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';

function text(entry: unknown): string {
  return typeof entry === 'string' ? entry : entry instanceof Error ? entry.message : JSON.stringify(entry);
}

export function dbosLogger(opts: { warnings: boolean }): DLogger {
  return {
    info: () => undefined,
    debug: () => undefined,
    warn: (e) => {
      if (opts.warnings) process.stderr.write(`dbos: ${text(e)}\n`);
    },
    error: (e) => process.stderr.write(`dbos: ${text(e)}\n`),
  };
}

/** DBOS's tables in the team database, made or brought up to date quietly (DBOS.migrate would print on stdout). */
export function migrateDbos(url: string): Promise<void> {
  return migrateSystemDatabase(url, new GlobalLogger(undefined, { logger: dbosLogger({ warnings: false }) }), 'dbos');
}
