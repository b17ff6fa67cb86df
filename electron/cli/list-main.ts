// `ratchet list` as the built CLI runs it: the same errors and exit codes as main(), without loading the engine.
import { isBadInput } from '../engine/errors';
import { defaultIo, type CliIo } from './cli-kit';
import { cmdList } from './list-command';

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  try {
    return cmdList(argv.slice(1), io);
  } catch (err) {
    io.stderr.write(`ratchet: ${err instanceof Error ? err.message : String(err)}\n`);
    return isBadInput(err) ? 2 : 1;
  }
}
