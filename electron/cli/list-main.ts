// `ratchet list` as the built CLI runs it: the same errors and exit codes as main(), without loading the engine. A team
// list (--team, --team-file, RATCHET_TEAM_URL, RATCHET_TEAM_URL_FILE) is main()'s: it needs the team's client.
import { isBadInput } from '../engine/light';
import { defaultIo, terminalIo, type CliIo } from './cli-kit';
import { cmdList } from './list-command';
import { teamUrlOf } from './team-url';

export async function main(argv: string[], rawIo: CliIo = defaultIo()): Promise<number> {
  const io = terminalIo(rawIo);
  try {
    const team = teamUrlOf(argv.slice(1), io.env);
    if (team.url) return (await import('./main')).main(argv, rawIo);
    return cmdList(team.rest, io);
  } catch (err) {
    io.stderr.write(`ratchet: ${err instanceof Error ? err.message : String(err)}\n`);
    return isBadInput(err) ? 2 : 1;
  }
}
