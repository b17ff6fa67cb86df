// Which `main` the built CLI runs for a command line: `list` loads the store only (list-main.ts, which hands a team
// list to main), anything else the CLI with its engine. One place, so a test walks the CLI as it is started.
import type { CliIo } from './cli-kit';

export type CliMain = (argv: string[], io?: CliIo) => Promise<number>;

export async function mainFor(argv: readonly string[]): Promise<CliMain> {
  return argv[0] === 'list' ? (await import('./list-main')).main : (await import('./main')).main;
}
