// Types for scripts/start.mjs (plain Node, no build step), so its tests are typechecked.
export declare const BUILD_OUTPUTS: string[];
export declare const BUILD_SOURCES: string[];
export declare const USAGE: string;
export interface StartOptions { demo: boolean; headless: boolean; open: boolean; port: string | null }
export declare function parseArgs(args: string[]): StartOptions | { error: string };
export declare function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean;
export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };
export declare function findElectronBinary(deps: {
  electronDir: string | null;
  env: NodeJS.ProcessEnv;
  exists: (path: string) => boolean;
  readText: (path: string) => string;
}): ElectronBinary;
export type LaunchDecision = { mode: 'electron'; binary: string } | { mode: 'headless'; reason: string };
export declare function decideLaunch(input: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; electron: ElectronBinary; forceHeadless: boolean }): LaunchDecision;
export declare function buildReason(outputMtimes: Array<number | null>, newestSourceMtime: number): string | null;
export declare function newestMtime(paths: string[], root?: string): number;
export declare function serveUrl(line: string): string | null;
export declare function browserCommand(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, url: string): { command: string; args: string[]; verbatim?: boolean } | null;
export declare function createSignalForwarder(kill: (signal: NodeJS.Signals) => void, now?: () => number, windowMs?: number): (signal: NodeJS.Signals) => boolean;
export declare function electronEntry(root: string, pkg: { main?: string }): string;
export declare function main(argv?: string[]): Promise<number>;
