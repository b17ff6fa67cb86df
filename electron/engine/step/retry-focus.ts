// Faster retries: a gate command narrowed to the tests that failed, for a runner the gate invokes plainly (pytest,
// unittest, go test, cargo test, vitest, jest, node --test, or an npm/pnpm script that is one of them).
import type { FailedTest } from '../gates/parse-failures';

export interface FocusedCommand {
  /** The gate's command with the runner's own filter for the failing tests. */
  command: string;
  runner: string;
  /** The test names the filter selects. */
  tests: string[];
}

// A plain command: words of ordinary characters, no quoting, expansion, redirection or second command.
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Single-quoted for the shell. */
function q(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** The last part of a parsed name ("file > suite > test", "suite › test", "a::b"). */
function leaf(name: string): string {
  return name
    .split(/ > | › /)
    .pop()!
    .trim();
}

/** Options that take the next word as their value, per runner; any other option is taken for a flag. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  vitest: new Set([
    '-c',
    '--config',
    '-r',
    '--root',
    '--dir',
    '--reporter',
    '--outputFile',
    '--project',
    '--environment',
    '--pool',
    '--mode',
    '--shard',
    '--maxWorkers',
    '--minWorkers',
    '--testTimeout',
    '--retry',
  ]),
  jest: new Set(['-c', '--config', '--rootDir', '--reporters', '--outputFile', '--maxWorkers', '-w', '--testTimeout', '--shard', '--selectProjects']),
  node: new Set([
    '--test-reporter',
    '--test-reporter-destination',
    '--test-concurrency',
    '--test-timeout',
    '--import',
    '--require',
    '-r',
    '--loader',
    '--experimental-loader',
  ]),
};

/**
 * Splits runner arguments into options (kept, with the values of the options known to take one) and positional
 * words (dropped: they select files, and the focus names the files itself). Null when a value is missing.
 */
function optionsOnly(args: string[], runner: keyof typeof VALUE_OPTIONS): string[] | null {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) continue;
    kept.push(a);
    if (a.includes('=')) continue;
    if (VALUE_OPTIONS[runner]!.has(a)) {
      const v = args[++i];
      if (v === undefined) return null;
      kept.push(v);
    }
  }
  return kept;
}

/** The failing tests' files, relative as the runner printed them, and their leaf names as one regex. */
function filesAndPattern(failures: readonly FailedTest[]): { files: string[]; pattern: string } | null {
  const files = unique(failures.map((f) => f.file ?? ''));
  if (files.some((f) => f === '')) return null;
  const names = unique(failures.map((f) => leaf(f.name)));
  return { files, pattern: names.map(escapeRegExp).join('|') };
}

type Focus = (runnerArgs: string[], failures: readonly FailedTest[]) => { args: string[]; tests: string[] } | null;

const PY_NAME = /^\w+$/;

const RUNNERS: Record<string, Focus> = {
  // pytest: -k with the test functions' names ("tests/x.py::Class::test_a[p]" → test_a).
  pytest(args, failures) {
    if (args.some((a) => a === '-k' || a.startsWith('-k') || a === '--lf' || a === '--last-failed')) return null;
    const names = unique(failures.map((f) => f.name.split('::').pop()!.replace(/\[.*$/, '')));
    if (!names.every((n) => PY_NAME.test(n))) return null;
    return { args: [...args, '-k', q(names.join(' or '))], tests: names };
  },
  // unittest: -k per test method ("tests.test_x.Case.test_a" → test_a); works with discover too.
  unittest(args, failures) {
    if (args.some((a) => a === '-k')) return null;
    const names = unique(
      failures.map((f) =>
        f.name
          .replace(/\s*\(.*$/, '')
          .split('.')
          .pop()!,
      ),
    );
    if (!names.every((n) => PY_NAME.test(n))) return null;
    return { args: [...args, ...names.flatMap((n) => ['-k', n])], tests: names };
  },
  // go test: -run with the top-level test names ("example.com/x > TestA/sub" → TestA).
  go(args, failures) {
    if (args.some((a) => a === '-run' || a.startsWith('-run='))) return null;
    const names = unique(failures.map((f) => leaf(f.name).split('/')[0]!));
    if (!names.every((n) => /^\w+$/.test(n))) return null;
    return { args: [...args, '-run', q(`^(${names.join('|')})$`)], tests: names };
  },
  // cargo test: libtest's own filters, exact ("tests::adds").
  cargo(args, failures) {
    const names = unique(failures.map((f) => leaf(f.name)));
    if (!names.every((n) => /^[\w:]+$/.test(n))) return null;
    const sep = args.indexOf('--');
    const before = sep < 0 ? args : args.slice(0, sep);
    const after = sep < 0 ? [] : args.slice(sep + 1);
    if (after.some((a) => !a.startsWith('-'))) return null; // filters of its own
    return { args: [...before, '--', ...after.filter((a) => a !== '--exact'), '--exact', ...names], tests: names };
  },
  vitest(args, failures) {
    const run = args[0] === 'run' ? ['run'] : [];
    const rest = run.length ? args.slice(1) : args;
    if (rest.some((a) => a === '-t' || a.startsWith('--testNamePattern'))) return null;
    const opts = optionsOnly(rest, 'vitest');
    const fp = filesAndPattern(failures);
    if (!opts || !fp) return null;
    return { args: [...run, ...opts, ...fp.files.map(q), '-t', q(fp.pattern)], tests: fp.pattern.split('|') };
  },
  jest(args, failures) {
    if (args.some((a) => a === '-t' || a.startsWith('--testNamePattern'))) return null;
    const opts = optionsOnly(args, 'jest');
    const fp = filesAndPattern(failures);
    if (!opts || !fp) return null;
    return { args: [...opts, ...fp.files.map(q), '-t', q(fp.pattern)], tests: fp.pattern.split('|') };
  },
  node(args, failures) {
    if (args[0] !== '--test' || args.some((a) => a.startsWith('--test-name-pattern'))) return null;
    const opts = optionsOnly(args.slice(1), 'node');
    const fp = filesAndPattern(failures);
    if (!opts || !fp) return null;
    return { args: ['--test', ...opts, `--test-name-pattern=${q(`^(?:${fp.pattern})$`)}`, ...fp.files.map(q)], tests: fp.pattern.split('|') };
  },
};

/** The runner a command's words start (after variable assignments and a launcher), and its arguments. */
function runnerOf(words: string[]): { prefix: string[]; runner: string; args: string[] } | null {
  let i = 0;
  while (i < words.length && ASSIGNMENT.test(words[i]!)) i++;
  const prefix = words.slice(0, i);
  const rest = words.slice(i);
  const [w0 = '', w1 = '', w2 = ''] = rest;
  const base = w0.split('/').pop()!;
  if (base === 'pytest' || base === 'py.test') return { prefix: [...prefix, w0], runner: 'pytest', args: rest.slice(1) };
  if (/^python(?:3(?:\.\d+)?)?$/.test(base) && w1 === '-m' && (w2 === 'pytest' || w2 === 'unittest')) {
    return { prefix: [...prefix, w0, w1, w2], runner: w2, args: rest.slice(3) };
  }
  if ((base === 'uv' || base === 'poetry') && w1 === 'run' && w2 === 'pytest')
    return { prefix: [...prefix, w0, w1, w2], runner: 'pytest', args: rest.slice(3) };
  if (base === 'go' && w1 === 'test') return { prefix: [...prefix, w0, w1], runner: 'go', args: rest.slice(2) };
  if (base === 'cargo' && w1 === 'test') return { prefix: [...prefix, w0, w1], runner: 'cargo', args: rest.slice(2) };
  if (base === 'npx' && (w1 === 'vitest' || w1 === 'jest')) return { prefix: [...prefix, w0, w1], runner: w1, args: rest.slice(2) };
  if (base === 'vitest' || base === 'jest') return { prefix: [...prefix, w0], runner: base, args: rest.slice(1) };
  if (base === 'node' && w1 === '--test') return { prefix: [...prefix, w0], runner: 'node', args: rest.slice(1) };
  return null;
}

const words = (command: string): string[] | null => {
  const ws = command.trim().split(/[ \t]+/);
  return ws.length > 0 && ws.every((w) => PLAIN_WORD.test(w)) ? ws : null;
};

/** `npm test`, `npm run <s>`, `pnpm test`, `pnpm run <s>`: the script's own command from package.json. */
function scriptOf(ws: string[], packageJson: string | null | undefined): { script: string; launcher: string[] } | null {
  const [w0, w1, w2] = ws;
  if ((w0 !== 'npm' && w0 !== 'pnpm') || !packageJson) return null;
  const name = w1 === 'test' || w1 === 't' ? 'test' : (w1 === 'run' || w1 === 'run-script') && w2 ? w2 : null;
  const extra = ws.slice(name === 'test' && w1 !== 'run' && w1 !== 'run-script' ? 2 : 3);
  if (!name || extra.length > 0) return null;
  try {
    const scripts = (JSON.parse(packageJson) as { scripts?: Record<string, unknown> }).scripts;
    const script = scripts?.[name];
    // A script with pre/post hooks runs more than the runner: its own arguments would not reach the runner alone.
    if (typeof script !== 'string' || scripts?.[`pre${name}`] || scripts?.[`post${name}`]) return null;
    return { script, launcher: w1 === 'run' || w1 === 'run-script' ? [w0, w1, w2!] : [w0, w1!] };
  } catch {
    return null;
  }
}

/**
 * The gate's command narrowed to `failures` (the failing tests a run of it parsed), with the runner's own filter; null
 * when the command is not a known runner invoked plainly, or the failures name no test the filter can select.
 */
export function focusCommand(run: string, failures: readonly FailedTest[], packageJson?: string | null): FocusedCommand | null {
  const tests = failures.filter((f) => f.kind !== 'compile' && f.name && f.name !== '(unnamed test)');
  if (tests.length === 0 || tests.length !== failures.length) return null;
  const ws = words(run);
  if (!ws) return null;
  const viaScript = scriptOf(ws, packageJson);
  if (viaScript) {
    const inner = words(viaScript.script);
    const found = inner && runnerOf(inner);
    if (!found || found.prefix.some((w) => ASSIGNMENT.test(w))) return null;
    const focused = RUNNERS[found.runner]!(found.args, tests);
    // The script's own words stay; the focus goes after `--`, which npm and pnpm hand to the script's command.
    if (!focused || focused.args.slice(0, found.args.length).join(' ') !== found.args.join(' ')) return null;
    const added = focused.args.slice(found.args.length);
    return { command: [...viaScript.launcher, '--', ...added].join(' '), runner: found.runner, tests: focused.tests };
  }
  const found = runnerOf(ws);
  if (!found) return null;
  const focused = RUNNERS[found.runner]!(found.args, tests);
  return focused ? { command: [...found.prefix, ...focused.args].join(' '), runner: found.runner, tests: focused.tests } : null;
}
