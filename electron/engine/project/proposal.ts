// What detection proposes for one ecosystem and for the whole repository: setup, gates, files to copy, each with the reason it was proposed.
import { shellQuote } from '../process/shell-quote';

/** What detection reads: the committed tree at the base commit (the run's worktree is made from it) and the checkout's untracked files. */
export interface ProjectSnapshot {
  /** Paths in the base commit, relative, `/`-separated: the top level, plus `tests/`, `test/` and `gradle/wrapper/` entries, and the CMakeLists.txt of folders the root one adds. */
  files: readonly string[];
  /** The text of the manifests detection reads, by path (only those that exist). */
  contents: Readonly<Record<string, string>>;
  /** Top-level files present in the user's checkout but not committed, that git ignores (e.g. `.env`). */
  ignoredInCheckout: readonly string[];
}

export type EcosystemId = 'node' | 'python' | 'rust' | 'go' | 'maven' | 'gradle' | 'cmake' | 'make';

export interface Reasoned {
  /** Why it is proposed: the file or field that decided, in a few words. */
  why: string;
}

export interface EcosystemProposal {
  id: EcosystemId;
  /** What the user sees: `npm`, `Python (uv)`, `Cargo`… */
  label: string;
  /** The files that decided. */
  evidence: string[];
  setup: Array<Reasoned & { run: string }>;
  network: Array<Reasoned & { entry: string }>;
  gates: Array<Reasoned & { name: string; run: string }>;
  notes: string[];
}

export interface DetectedProject {
  found: Array<{ ecosystem: EcosystemId; label: string; evidence: string[] }>;
  setup: Array<Reasoned & { run: string }>;
  network: Array<Reasoned & { entry: string }>;
  gates: Array<Reasoned & { name: string; run: string }>;
  copy: Array<Reasoned & { glob: string }>;
  /** What was seen but not proposed, and what the user may want to add. */
  notes: string[];
}

export function has(s: ProjectSnapshot, path: string): boolean {
  return s.files.includes(path);
}

export function firstOf(s: ProjectSnapshot, paths: readonly string[]): string | undefined {
  return paths.find((p) => has(s, p));
}

/** Single-quotes a word for a POSIX shell when it needs it (`.[test]` would glob). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : shellQuote(word);
}
