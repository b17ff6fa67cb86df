// The built CLI's entry: --help is answered from the usage text alone, `list` loads the store only, any other command loads the CLI and the engine.
import { quietOnClosedOutput } from './closed-output';
import { helpAnswer } from './usage';

quietOnClosedOutput();
const argv = process.argv.slice(2);
const help = helpAnswer(argv);
if (help) {
  process[help.stream].write(help.text);
  process.exitCode = help.code;
} else {
  // A team URL given on the command line carries the database's password: the process's title (what `ps` and
  // /proc/<pid>/cmdline show) is rewritten without it at once. The docs prefer RATCHET_TEAM_URL or --team-file.
  if (argv.some((a) => a === '--team' || a.startsWith('--team='))) {
    const { redactedArgv } = await import('./redact-argv');
    process.title = ['ratchet', ...redactedArgv(argv)].join(' ');
  }
  // `list` needs only the store: the engine is not loaded for it (entry-route.ts).
  const { mainFor } = await import('./entry-route');
  process.exitCode = await (await mainFor(argv))(argv);
}
