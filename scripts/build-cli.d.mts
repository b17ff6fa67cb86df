// Types of scripts/build-cli.mjs for the TypeScript callers (the P11 benchmark and its test).
/** Builds the CLI into `target` (default out/cli); returns how many source files went in. */
export function buildCli(target?: string): Promise<number>;
