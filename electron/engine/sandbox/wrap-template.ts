// A run's sandboxed command, wrapped by the library once and filled with each command: the library's wrap costs more than bubblewrap's start.
import { lstatSync, readdirSync, readlinkSync, rmdirSync, unlinkSync } from 'node:fs';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { quotedWords } from './relays';

/**
 * The library's bubblewrap command for a stand-in command, split where each real command goes. The library's wrap
 * (about 40 ms: a `which` for the shell, a ripgrep scan of Ratchet's working directory, walks of every list) depends
 * on the run's policy, which is fixed for the run, and on what exists at the paths it mounts, which the snapshot
 * checks before each reuse. Holding it, a run's gates and shell commands pay bubblewrap's start only.
 */
export interface WrapTemplate {
  /** bwrap and its arguments, through the shell's `-c`. */
  head: string[];
  /** The script before the command: the seccomp helper and its shell's `-c` (quoted into it); empty without the helper. */
  prefix: string;
  /** Every absolute path among bwrap's arguments and the policy's lists: what the arguments were computed from. */
  paths: string[];
  /** What was at each of those paths when the template was made (see pathKind). */
  kinds: string[];
  /**
   * The mount points bubblewrap makes on the host at each start, for denied paths that were absent (an empty file, or
   * an empty folder for one with denied paths below it): their kind, for the check, and to remove after each command.
   */
  placeholders: Map<string, 'f' | 'd'>;
}

const BINDS = new Set(['--bind', '--bind-try', '--ro-bind', '--ro-bind-try', '--dev-bind', '--dev-bind-try']);

/** A stand-in command the library's quoting leaves bare, so it can be found and replaced in its output. */
export function standIn(id: string): string {
  return `ratchet-command-${id.replace(/[^A-Za-z0-9]/g, '')}`;
}

/**
 * What the library wrote for `standIn` as a template, or null when it is not the one shape this knows (bubblewrap
 * run inline, the command last, once; another platform, library version or a profile passed through a file): the
 * caller then wraps every command itself, as before.
 */
export function makeTemplate(wrapped: string, stand: string, policyPaths: readonly string[] = []): WrapTemplate | null {
  if (wrapped.indexOf(stand) !== wrapped.lastIndexOf(stand)) return null;
  const words = quotedWords(wrapped);
  if (!words || (words[0] !== 'bwrap' && !words[0]?.endsWith('/bwrap'))) return null;
  const sep = words.indexOf('--');
  if (sep < 0 || sep !== words.length - 4 || words[sep + 2] !== '-c') return null;
  const script = words[sep + 3]!;
  let prefix: string;
  if (script === stand) prefix = '';
  else if (script.endsWith(` ${stand}`)) prefix = script.slice(0, -stand.length);
  else return null;
  // The seccomp helper's own command is `<shell> -c <command>`: the prefix must end at that `-c`.
  if (prefix && !prefix.endsWith(' -c ')) return null;
  const head = words.slice(0, sep + 3);
  // A policy path the library left out (absent when it looked) comes in when it appears: watched too.
  const paths = [...new Set([...head.filter((w) => w.startsWith('/')), ...policyPaths])];
  const kinds = paths.map(pathKind);
  const placeholders = new Map<string, 'f' | 'd'>();
  for (let i = 1; i + 2 < sep; i++) {
    // A variable's name and value are words of their own: never read as an option.
    if (head[i] === '--setenv') {
      i += 2;
      continue;
    }
    if (!BINDS.has(head[i]!)) continue;
    const [source, dest] = [head[i + 1]!, head[i + 2]!];
    if (pathKind(dest) === '-') placeholders.set(dest, pathKind(source) === 'd' ? 'd' : 'f');
    i += 2;
  }
  return { head, prefix, paths, kinds, placeholders };
}

/** Whether bubblewrap's arguments in `t` are still what the library would write: every path as it was, or its placeholder. */
export function templateHolds(t: WrapTemplate): boolean {
  return t.paths.every((p, i) => {
    const now = pathKind(p);
    return now === t.kinds[i] || now === t.placeholders.get(p);
  });
}

/**
 * Removes the placeholders bubblewrap made for `t` (still empty: anything else is left alone), deepest first, as the
 * library does after its own wraps. Only when no command of the template runs: removing a mount point detaches it.
 */
export function removePlaceholders(t: WrapTemplate): void {
  for (const p of [...t.placeholders.keys()].sort((a, b) => b.length - a.length)) {
    try {
      const st = lstatSync(p);
      if (st.isFile() && st.size === 0) unlinkSync(p);
      else if (st.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
    } catch {
      // Gone already.
    }
  }
}

/** The process to spawn for `command` (the whole script the shell runs) from `t`. */
export function fillTemplate(t: WrapTemplate, command: string): { file: string; args: string[] } {
  const script = t.prefix ? `${t.prefix}${quote([command])}` : command;
  return { file: t.head[0]!, args: [...t.head.slice(1), script] };
}

/**
 * The kind of thing at a path (`-` absent, `f` file, `d` folder, `l:<target>` a link, `o` other): bubblewrap's
 * arguments differ by it (an absent denied path is held by a placeholder, an existing one bound to itself), so a
 * change means wrapping again. Contents are not looked at: bubblewrap mounts by path.
 */
export function pathKind(p: string): string {
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return `l:${readlinkSync(p)}`;
    return st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o';
  } catch {
    return '-';
  }
}

interface Held {
  template: WrapTemplate;
  /** The slot's hold and each command running on it: the library's mount points stay until the last lets go. */
  uses: number;
}

/**
 * A run's templates (one per shell: the agent's shell tool and the gates may name bash differently) and who uses
 * them. The library keeps the mount points and empty folders a wrap made until every wrap it handed out is let go,
 * so a template counts as one wrap for as long as the run holds it or a command runs on it.
 */
export class TemplateSlot {
  private readonly held = new Map<string, Held>();
  /** Commands of the run running now, on any of its templates (held or replaced). */
  private running = 0;

  /**
   * `letGo`: what ends one of the library's wraps (its cleanupAfterCommand). `busy` is called when the first of the
   * run's commands starts (none running before), `idle` when the last running one ends.
   */
  constructor(
    private readonly letGo: () => void,
    private readonly hooks: { busy?: () => void; idle?: () => void } = {},
  ) {}

  /** The held template for `shell` while what it was made from is unchanged; else it is let go and null returned. */
  current(shell: string): WrapTemplate | null {
    const h = this.held.get(shell);
    if (!h) return null;
    if (templateHolds(h.template)) return h.template;
    this.held.delete(shell);
    this.drop(h);
    return null;
  }

  /** Holds a new template for `shell` (letting go of the one before). */
  hold(shell: string, template: WrapTemplate): void {
    const before = this.held.get(shell);
    this.held.set(shell, { template, uses: 1 });
    if (before) this.drop(before);
  }

  /** The process for `script` on the template held for `shell`; `done` once it has exited. */
  use(shell: string, script: string): { file: string; args: string[]; done(): void } {
    const h = this.held.get(shell);
    if (!h) throw new Error(`no sandbox template is held for ${shell}`);
    h.uses++;
    const ended = this.begin([h.template]);
    return {
      ...fillTemplate(h.template, script),
      done: () => {
        if (ended()) this.drop(h);
      },
    };
  }

  /**
   * A command of the run starts (on a template, or wrapped by the library itself: one that reaches a host). The
   * returned function ends it, once (true the first time); when the run's last running command ends, the
   * placeholders go, as the library's own do after a command. Only this run's commands mount this run's paths, so
   * another run's need not be waited for.
   */
  begin(also: readonly WrapTemplate[] = []): () => boolean {
    if (this.running === 0) this.hooks.busy?.();
    this.running++;
    let ended = false;
    return () => {
      if (ended) return false;
      ended = true;
      this.running--;
      if (this.running === 0) {
        for (const t of [...also, ...[...this.held.values()].map((x) => x.template)]) removePlaceholders(t);
        this.hooks.idle?.();
      }
      return true;
    };
  }

  /** The run is over: lets go of its templates (a command still running on one keeps it until it ends). */
  close(): void {
    const all = [...this.held.values()];
    this.held.clear();
    for (const h of all) this.drop(h);
  }

  private drop(h: Held): void {
    h.uses--;
    if (h.uses === 0) this.letGo();
  }
}
