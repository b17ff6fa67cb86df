// Which team database a command uses. A URL given as `--team <url>`
// carries the database's password where every user of the machine reads it (`ps`, /proc/<pid>/cmdline): the docs
// prefer RATCHET_TEAM_URL or a file (`--team-file`, RATCHET_TEAM_URL_FILE), and the process's own title is rewritten
// without the password as soon as the CLI starts (redact-argv.ts). No database driver is loaded here: `list` uses it.
import { readFileSync } from 'node:fs';
import { UsageError } from './cli-kit';

/** The URL a team file holds: its first non-empty line (a file made with `echo` ends with a newline). */
function readTeamFile(file: string, from: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${from} names ${file}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  const url = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!url) throw new UsageError(`${from} names ${file}, which is empty: write the team database URL (postgres://…) in it.`);
  return url;
}

/**
 * The team URL a command uses: its --team, else its --team-file, else RATCHET_TEAM_URL, else RATCHET_TEAM_URL_FILE
 * (unless --local), else none (a local command). `rest`: the arguments without these flags.
 */
export function teamUrlOf(args: string[], env: NodeJS.ProcessEnv): { url: string | null; rest: string[] } {
  const rest: string[] = [];
  let url: string | null = null;
  let local = false;
  const value = (flag: string, i: number): string => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--'))
      throw new UsageError(
        `${flag} takes ${flag === '--team' ? 'the team database URL (postgres://…)' : 'a file holding the team database URL'}, or set RATCHET_TEAM_URL.`,
      );
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--team') url = value(a, i++);
    else if (a.startsWith('--team=')) url = a.slice('--team='.length);
    else if (a === '--team-file') url = readTeamFile(value(a, i++), '--team-file');
    else if (a.startsWith('--team-file=')) url = readTeamFile(a.slice('--team-file='.length), '--team-file');
    else if (a === '--local') local = true;
    else rest.push(a);
  }
  if (local) return { url: null, rest };
  if (url) return { url, rest };
  if (env.RATCHET_TEAM_URL) return { url: env.RATCHET_TEAM_URL, rest };
  if (env.RATCHET_TEAM_URL_FILE) return { url: readTeamFile(env.RATCHET_TEAM_URL_FILE, 'RATCHET_TEAM_URL_FILE'), rest };
  return { url: null, rest };
}
