// A closed stdout or stderr (`ratchet list | head -1`) ends the command's output quietly, as git does: no EPIPE stack trace.

let installed = false;

/**
 * After the reader of stdout (or stderr) went away, what the command still writes goes nowhere, and the command ends
 * with its own exit code (0 unless it failed). Without a listener, Node throws the stream's EPIPE as an uncaught error
 * (a stack trace and exit 1). Imports nothing, so the entry can call it before it answers --help.
 */
export function quietOnClosedOutput(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
      throw err;
    });
  }
}
