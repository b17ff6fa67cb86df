// One POSIX shell word: a value single-quoted so a shell reads it back as it was, whatever it holds.

/** Single-quotes a value for a POSIX shell. */
export function shellQuote(v: string): string {
  return `'${v.replaceAll("'", `'\\''`)}'`;
}
