// Finds the program a gate command would start that is not installed: the first simple command's words read as bash
// reads them, through wrappers (env, exec, timeout…), looked up on the gate's PATH; before a run, so a typo is said early.
import fs from 'node:fs';
import path from 'node:path';
import { whichIn } from '../process/which';

// Programs (not shell words) that run another program given as an argument.
const WRAPPERS = new Set(['env', 'nice', 'nohup', 'timeout', 'stdbuf', 'xargs']);

const BASH_KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'function',
  '{',
  '}',
  '[[',
  ']]',
  'in',
  'coproc',
  '!',
]);

const BASH_BUILTINS = new Set([
  '.',
  ':',
  '[',
  'alias',
  'bg',
  'bind',
  'break',
  'builtin',
  'caller',
  'cd',
  'command',
  'compgen',
  'complete',
  'compopt',
  'continue',
  'declare',
  'dirs',
  'disown',
  'echo',
  'enable',
  'eval',
  'exec',
  'exit',
  'export',
  'false',
  'fc',
  'fg',
  'getopts',
  'hash',
  'help',
  'history',
  'jobs',
  'kill',
  'let',
  'local',
  'logout',
  'mapfile',
  'popd',
  'printf',
  'pushd',
  'pwd',
  'read',
  'readarray',
  'readonly',
  'return',
  'set',
  'shift',
  'shopt',
  'source',
  'suspend',
  'test',
  'times',
  'trap',
  'true',
  'type',
  'typeset',
  'ulimit',
  'umask',
  'unalias',
  'unset',
  'wait',
]);

interface Word {
  text: string;
  /** Contains an unquoted expansion ($, backtick, glob) we cannot evaluate statically. */
  dynamic: boolean;
  /** The character right after the word, '' at the end. */
  next: string;
}

/** Reads the words of the first simple command; null when the text starts with something we do not analyse. */
function firstCommandWords(run: string): Word[] | null {
  const words: Word[] = [];
  let i = 0;
  const n = run.length;
  // Leading blank lines and comment lines are not commands.
  for (;;) {
    while (i < n && /\s/.test(run[i]!)) i++;
    if (run[i] !== '#') break;
    while (i < n && run[i] !== '\n') i++;
  }
  while (i < n) {
    while (i < n && (run[i] === ' ' || run[i] === '\t' || (run[i] === '\\' && run[i + 1] === '\n'))) {
      i += run[i] === '\\' ? 2 : 1;
    }
    if (i >= n) break;
    const c = run[i]!;
    if (';&|\n<>()'.includes(c)) {
      if (words.length === 0) return null;
      break;
    }
    if (c === '#' && words.length > 0) break;
    let text = '';
    let dynamic = false;
    while (i < n) {
      const ch = run[i]!;
      if (/[\s;&|<>()]/.test(ch)) break;
      if (ch === "'") {
        const end = run.indexOf("'", i + 1);
        if (end < 0) return null;
        text += run.slice(i + 1, end);
        i = end + 1;
      } else if (ch === '"') {
        let j = i + 1;
        while (j < n && run[j] !== '"') {
          if (run[j] === '\\' && j + 1 < n && '"\\$`\n'.includes(run[j + 1]!)) {
            if (run[j + 1] !== '\n') text += run[j + 1];
            j += 2;
            continue;
          }
          if (run[j] === '$' || run[j] === '`') dynamic = true;
          text += run[j];
          j++;
        }
        if (j >= n) return null;
        i = j + 1;
      } else if (ch === '\\') {
        if (i + 1 < n) text += run[i + 1];
        i += 2;
      } else if ((ch === '$' && (run[i + 1] === '(' || run[i + 1] === '{')) || ch === '`') {
        const end = ch === '`' ? run.indexOf('`', i + 1) : matchingClose(run, i + 1);
        if (end < 0) return null;
        text += run.slice(i, end + 1);
        dynamic = true;
        i = end + 1;
      } else {
        if (ch === '$' || ch === '*' || ch === '?' || ch === '[') dynamic = true;
        text += ch;
        i++;
      }
    }
    words.push({ text, dynamic, next: run[i] ?? '' });
  }
  return words;
}

/** Index of the bracket closing the one at `open`, skipping quoted text; -1 when unbalanced. */
function matchingClose(run: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < run.length; i++) {
    const ch = run[i]!;
    if (ch === '\\') {
      i++;
    } else if (ch === "'") {
      const end = run.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (ch === '(' || ch === '{') {
      stack.push(pairs[ch]!);
    } else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Index of the wrapped command after a wrapper at `i`, or -1 when the wrapper runs nothing we can name. */
function skipWrapper(words: Word[], i: number): number {
  const name = words[i]!.text;
  let j = i + 1;
  const opt = (): boolean => j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-';
  switch (name) {
    case 'env':
      while (j < words.length) {
        const w = words[j]!.text;
        if (w === '--') {
          j++;
          break;
        }
        if (w === '-u' || w === '-C' || w === '--unset' || w === '--chdir' || w === '-S' || w === '--split-string') {
          if (w === '-S' || w === '--split-string') return -1;
          j += 2;
        } else if (w.startsWith('-')) j++;
        else if (ASSIGNMENT.test(w)) {
          if (w.startsWith('PATH=')) return -1;
          j++;
        } else break;
      }
      return j;
    case 'exec':
      while (opt()) j += words[j]!.text === '-a' ? 2 : 1;
      return j;
    case 'time':
      while (opt()) j++;
      return j;
    case 'nice':
      while (opt()) j += words[j]!.text === '-n' ? 2 : 1;
      return j;
    case 'command':
      while (opt()) {
        // `command -v foo` only asks whether foo exists; it runs nothing.
        if (words[j]!.text === '-v' || words[j]!.text === '-V') return -1;
        j++;
      }
      return j;
    case 'timeout':
      while (opt()) j += ['-s', '-k', '--signal', '--kill-after'].includes(words[j]!.text) ? 2 : 1;
      return j + 1; // the duration
    case 'stdbuf':
      while (opt()) j += ['-i', '-o', '-e'].includes(words[j]!.text) ? 2 : 1;
      return j;
    case 'xargs':
      // Its options take arguments in too many ways to skip reliably.
      return -1;
    default:
      return j;
  }
}

/**
 * The first program `run` would start when it is not a builtin, keyword or function and cannot be found on the
 * env's PATH (or, for a name with a slash, relative to cwd); null when it exists or the command is too dynamic to tell.
 */
export function findMissingCommand(run: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const words = firstCommandWords(run);
  if (!words) return null;
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (ASSIGNMENT.test(w.text)) {
      // The shell looks the command up with a PATH set this way, which we would have to evaluate.
      if (w.text.startsWith('PATH=') || w.text.startsWith('PATH+=')) return null;
      i++;
      continue;
    }
    if (w.dynamic) return null;
    // `name()` defines a function; `name=(...)` is an array assignment. Either way nothing runs yet.
    if (w.next === '(') return null;
    if (w.text === '!' || w.text === 'time' || w.text === 'builtin') {
      i = w.text === 'builtin' ? i + 1 : skipWrapper(words, i);
      continue;
    }
    if (BASH_KEYWORDS.has(w.text)) return null;
    if (w.text === 'exec' || w.text === 'command') {
      i = skipWrapper(words, i);
      if (i < 0) return null;
      continue;
    }
    if (BASH_BUILTINS.has(w.text)) return null;
    const resolved = resolveProgram(w.text, cwd, env);
    if (!resolved) return w.text;
    if (WRAPPERS.has(path.basename(w.text))) {
      i = skipWrapper(words, i);
      if (i < 0) return null;
      continue;
    }
    return null;
  }
  return null;
}

function resolveProgram(name: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  let target = name;
  if (target === '~' || target.startsWith('~/')) {
    if (!env.HOME) return target;
    target = path.join(env.HOME, target.slice(1));
  }
  if (target.includes('/')) {
    const full = path.resolve(cwd, target);
    // A file that exists but is not executable is a permission problem, reported by the run itself.
    return fs.existsSync(full) ? full : null;
  }
  return whichIn(target, env, cwd);
}
