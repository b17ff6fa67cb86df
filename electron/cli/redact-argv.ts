// The CLI's own command line with the password of every team URL in it hidden: what the process's title (`ps`) shows.
import { redactTeamUrl } from '../engine';

/** `argv` with the password of every team URL in it hidden (`--team <url>`, `--team=<url>`), for the process's title and messages. */
export function redactedArgv(argv: readonly string[]): string[] {
  return argv.map((a, i) => {
    if (argv[i - 1] === '--team') return redactTeamUrl(a);
    if (a.startsWith('--team=')) return `--team=${redactTeamUrl(a.slice('--team='.length))}`;
    return a;
  });
}
