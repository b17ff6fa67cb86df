// The installed app's `ratchet` command: the launcher beside the app runs the app's executable with `--ratchet-cli -- <args>`, and the CLI runs in the main process.
// (The RunAsNode fuse is off, so the app's executable cannot be used as plain Node; this is the one way the bundled CLI runs.)

export const CLI_FLAG = '--ratchet-cli';

/**
 * The CLI arguments when this process was started by the launcher, else null. Everything after the `--` that follows
 * the flag is the CLI's (Chromium stops reading switches at `--`, so `--json` or `--yes` stay the CLI's).
 */
export function cliArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(CLI_FLAG);
  if (at < 0) return null;
  const rest = argv.slice(at + 1);
  return rest[0] === '--' ? rest.slice(1) : rest;
}

/** What the installed CLI refuses before running: the demo starts only from the development tree (`npm run demo`). */
export function refusedInInstalledApp(args: readonly string[]): string | null {
  if (args.includes('--demo')) return 'The demo runs only from the development tree: clone the repository and run `npm run demo`.';
  return null;
}
