// `ratchet list` as the built CLI runs it: the same errors and exit codes as main(), without loading the engine.
import { isBadInput } from '../engine/errors';
import { defaultIo, terminalIo, type CliIo } from './cli-kit';
import { cmdList } from './list-command';

export async function main(argv: string[], rawIo: CliIo = defaultIo()): Promise<number> {
  const io = terminalIo(rawIo);
  try {
    return cmdList(argv.slice(1), io);
  } catch (err) {
    io.stderr.write(`ratchet: ${err instanceof Error ? err.message : String(err)}\n`);
    return isBadInput(err) ? 2 : 1;
  }
}
