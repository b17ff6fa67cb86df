// The gate tests the worktree's code: finds what would make the project resolve to the user's checkout (an editable install, a .pth line, PYTHONPATH, a PATH entry, a node_modules link, go.work) and points it at the worktree, or says what to change.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../fs/within';
import { readWorktreeFileSync, textOf } from '../fs/worktree-file';
import type { RunJail } from '../sandbox/os-sandbox';
import { probePython, type PythonProbe, type PythonRef } from './python-probe';

export interface LeakCheckInput {
  /** The user's checkout (the repository's root). */
  checkout: string;
  worktree: string;
  /** The files of the worktree (relative). */
  files: readonly string[];
  /** The environment gates get (the jail's). */
  env: NodeJS.ProcessEnv;
  jail?: RunJail;
  signal?: AbortSignal;
}

export interface LeakCheck {
  /** Variables to set (or, when undefined, remove) for every command of the run: agent, setup, gates. */
  env: Record<string, string | undefined>;
  /** What was changed, one sentence each (shown in the run's log and status). */
  fixes: string[];
  /** Set when something still resolves into the checkout: the run is refused with this sentence. */
  refusal: string | null;
}

const VENV_DIRS = ['.venv', 'venv', '.env', 'env'];
const PYTHON_MARKERS = /(^|\/)(pyproject\.toml|setup\.py|setup\.cfg)$/;

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The worktree's counterpart of a path inside the checkout. */
function counterpart(checkout: string, worktree: string, p: string): string {
  return path.join(worktree, path.relative(checkout, p));
}

function isVenv(dir: string): boolean {
  return existsSync(path.join(dir, 'pyvenv.cfg'));
}

/** The worktree's own virtualenv (made by setup), if it has one at its root. */
export function worktreeVenv(worktree: string): string | null {
  for (const d of VENV_DIRS) {
    const dir = path.join(worktree, d);
    if (isVenv(dir)) return dir;
  }
  return null;
}

function pathEntries(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(path.delimiter);
}

/**
 * PATH entries inside the checkout run the checkout's tools. Each becomes its worktree counterpart when the worktree
 * has one (node_modules/.bin after dependencies were copied, a tracked scripts folder); a checkout virtualenv's bin is
 * replaced by the worktree's own virtualenv when setup made one; what is left is said.
 */
function fixPath(c: { checkout: string; worktree: string }, env: NodeJS.ProcessEnv, out: LeakCheck): string[] {
  const entries = pathEntries(env);
  const venv = worktreeVenv(c.worktree);
  const unresolved: string[] = [];
  const fixed: string[] = [];
  let changed = false;
  const next = entries.flatMap((e) => {
    if (!e || !path.isAbsolute(e) || !isWithin(c.checkout, real(e))) return [e];
    const inVenv = isVenv(path.dirname(real(e)));
    if (inVenv && venv) {
      changed = true;
      return [];
    }
    const there = counterpart(c.checkout, c.worktree, real(e));
    if (!inVenv && existsSync(there)) {
      changed = true;
      fixed.push(`${e} → ${there}`);
      return [there];
    }
    // A checkout virtualenv without an editable install of the project is only its dependencies: the Python check decides.
    if (!inVenv) unresolved.push(e);
    return [e];
  });
  if (venv) {
    const bin = path.join(venv, process.platform === 'win32' ? 'Scripts' : 'bin');
    if (next[0] !== bin) {
      out.fixes.push(`the worktree's own virtualenv ${path.relative(c.worktree, venv)} is first on PATH (VIRTUAL_ENV set)`);
      out.env.VIRTUAL_ENV = venv;
      next.unshift(bin);
      changed = true;
    }
  }
  if (fixed.length) out.fixes.push(`PATH entries in your checkout point at the worktree instead: ${fixed.join(', ')}`);
  if (changed) out.env.PATH = next.filter((e, i) => next.indexOf(e) === i).join(path.delimiter);
  return unresolved;
}

/** Links in the worktree's node_modules (top level and @scope/) that lead into the checkout are made to lead to the worktree's counterpart. */
function fixNodeLinks(c: { checkout: string; worktree: string }, out: LeakCheck): string[] {
  const root = path.join(c.worktree, 'node_modules');
  let st;
  try {
    st = lstatSync(root);
  } catch {
    return [];
  }
  if (st.isSymbolicLink()) {
    return isWithin(c.checkout, real(root)) ? [`the worktree's node_modules is a link to ${real(root)}, in your checkout`] : [];
  }
  const problems: string[] = [];
  const relinked: string[] = [];
  const visit = (dir: string, depth: number) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      const lst = lstatSync(p);
      if (lst.isSymbolicLink()) {
        const target = path.resolve(dir, readlinkSync(p));
        if (!isWithin(c.checkout, real(target)) && !isWithin(c.checkout, target)) continue;
        const there = counterpart(c.checkout, c.worktree, isWithin(c.checkout, target) ? target : real(target));
        if (existsSync(there)) {
          rmSync(p);
          symlinkSync(path.relative(dir, there), p);
          relinked.push(path.relative(c.worktree, p));
        } else {
          problems.push(`${path.relative(c.worktree, p)} links to ${target}, in your checkout`);
        }
      } else if (depth === 0 && name.startsWith('@') && lst.isDirectory()) {
        visit(p, 1);
      }
    }
  };
  visit(root, 0);
  if (relinked.length) out.fixes.push(`links into your checkout now lead to the worktree: ${relinked.join(', ')}`);
  return problems;
}

/** NODE_PATH entries inside the checkout become their worktree counterparts, or are dropped when it has none. */
function fixNodePath(c: { checkout: string; worktree: string }, env: NodeJS.ProcessEnv, out: LeakCheck): void {
  if (!env.NODE_PATH) return;
  const entries = env.NODE_PATH.split(path.delimiter);
  const next = entries.flatMap((e) =>
    e && path.isAbsolute(e) && isWithin(c.checkout, real(e))
      ? existsSync(counterpart(c.checkout, c.worktree, real(e)))
        ? [counterpart(c.checkout, c.worktree, real(e))]
        : []
      : [e],
  );
  if (next.join(path.delimiter) !== env.NODE_PATH) {
    out.env.NODE_PATH = next.length ? next.join(path.delimiter) : undefined;
    out.fixes.push('NODE_PATH no longer points into your checkout');
  }
}

/** go.work (the worktree's, or GOWORK) and go.mod `replace` lines naming a folder of the checkout by its absolute path. */
function goLeaks(c: { checkout: string; worktree: string }, files: readonly string[], env: NodeJS.ProcessEnv, out: LeakCheck): string[] {
  const problems: string[] = [];
  if (env.GOWORK && env.GOWORK !== 'off' && path.isAbsolute(env.GOWORK) && isWithin(c.checkout, real(env.GOWORK))) {
    const there = counterpart(c.checkout, c.worktree, real(env.GOWORK));
    if (existsSync(there)) {
      out.env.GOWORK = there;
      out.fixes.push(`GOWORK points at the worktree's ${path.relative(c.worktree, there)}`);
    } else {
      problems.push(`GOWORK is ${env.GOWORK}, your checkout's workspace file, so go would build your checkout's modules`);
    }
  }
  const absolute = /(?:^|\s|=>\s*)(\/[^\s)]+)/g;
  for (const f of files.filter((x) => /(^|\/)(go\.work|go\.mod)$/.test(x))) {
    // The agent writes these files: read as every worktree file is (a regular file of the worktree, bounded).
    const text = textOf(readWorktreeFileSync(c.worktree, f, { maxBytes: 4 * 1024 * 1024 }));
    if (text === null) continue;
    for (const line of text.split('\n')) {
      if (!/^\s*(use|replace|\S+\s+=>|\/)/.test(line) && !line.includes('=>')) continue;
      for (const m of line.matchAll(absolute)) {
        if (isWithin(c.checkout, real(m[1]!))) problems.push(`${f} names ${m[1]}, a folder of your checkout, by its absolute path`);
      }
    }
  }
  return problems;
}

/** The top-level modules the refs point at inside the checkout (what must import from the worktree instead). */
function projectModules(refs: readonly PythonRef[], inCheckout: (p: string) => boolean): string[] {
  const names = new Set<string>();
  for (const r of refs) {
    if (!inCheckout(r.target)) continue;
    if (r.kind === 'finder' && r.name) names.add(r.name.split('.')[0]!);
    if (r.kind !== 'finder') {
      try {
        for (const e of readdirSync(r.target)) {
          const p = path.join(r.target, e);
          if (/^[A-Za-z_]\w*\.py$/.test(e) && e !== 'setup.py' && e !== 'conftest.py') names.add(e.slice(0, -3));
          else if (/^[A-Za-z_]\w*$/.test(e) && existsSync(path.join(p, '__init__.py')) && statSync(p).isDirectory() && !['tests', 'test', 'docs'].includes(e))
            names.add(e);
        }
      } catch {
        // Not a folder (a zip, a missing path): nothing to import from it.
      }
    }
  }
  return [...names].sort();
}

/** Where refs inside the checkout would import from in the worktree: the import roots, as PYTHONPATH entries. */
function importRoots(refs: readonly PythonRef[], c: { checkout: string; worktree: string }, inCheckout: (p: string) => boolean): string[] {
  const roots = refs.filter((r) => inCheckout(r.target)).map((r) => (r.kind === 'finder' ? path.dirname(real(r.target)) : real(r.target)));
  return [...new Set(roots.map((r) => counterpart(c.checkout, c.worktree, r)).filter((r) => existsSync(r)))];
}

async function pythonLeaks(c: LeakCheckInput, env: NodeJS.ProcessEnv, out: LeakCheck): Promise<string[]> {
  if (!c.files.some((f) => PYTHON_MARKERS.test(f))) return [];
  const probe = async (names: readonly string[], extra: Record<string, string | undefined>): Promise<PythonProbe | null> =>
    probePython({ cwd: c.worktree, env: { ...env, ...extra }, jail: c.jail, names, signal: c.signal });
  const first = await probe([], {});
  if (!first) return [];
  const prefix = real(first.prefix);
  // The checkout's own virtualenv holds dependencies, not the project: only what leads elsewhere in the checkout counts.
  const inCheckout = (p: string) => isWithin(c.checkout, real(p)) && !isWithin(prefix, real(p));
  const names = projectModules(first.refs, inCheckout);
  if (!first.refs.some((r) => inCheckout(r.target))) return [];
  const roots = importRoots(first.refs, c, inCheckout);
  const tried = roots.length ? { PYTHONPATH: [...roots, ...(env.PYTHONPATH ? [env.PYTHONPATH] : [])].join(path.delimiter) } : {};
  const second = await probe(names, tried);
  const stillOut = second ? Object.entries(second.origins).filter(([, o]) => o !== null && inCheckout(o)) : [];
  if (second && roots.length && stillOut.length === 0) {
    Object.assign(out.env, tried);
    out.fixes.push(
      `PYTHONPATH starts with ${roots.map((r) => path.relative(c.worktree, r) || '.').join(', ')} of the worktree, so ${names.join(', ') || 'the project'} import${names.length === 1 ? 's' : ''} from the worktree, not from the editable install in your checkout`,
    );
    return [];
  }
  const shown = first.refs.filter((r) => inCheckout(r.target) && r.kind !== 'path').slice(0, 3);
  const what = shown.length
    ? shown
        .map(
          (r) =>
            `${r.kind === 'finder' ? `an editable install maps ${r.name}` : r.kind === 'egg-link' ? 'an egg-link points' : 'a .pth line adds'} to ${r.target} (${r.file})`,
        )
        .join('; ')
    : `sys.path has ${first.refs
        .filter((r) => inCheckout(r.target))
        .map((r) => r.target)
        .slice(0, 3)
        .join(', ')}`;
  return [`${first.executable} would import the project from your checkout: ${what}`];
}

/**
 * Finds what makes gates resolve the project into the checkout and fixes what it can (the worktree's counterpart on
 * PATH, PYTHONPATH or NODE_PATH; a node_modules link relinked; GOWORK moved); a refusal says what is left and what to change.
 */
export async function checkCheckoutLeaks(input: LeakCheckInput): Promise<LeakCheck> {
  const c = { ...input, checkout: real(input.checkout), worktree: real(input.worktree) };
  const out: LeakCheck = { env: {}, fixes: [], refusal: null };
  const pathProblems = fixPath(c, input.env, out);
  fixNodePath(c, input.env, out);
  const nodeProblems = fixNodeLinks(c, out);
  const goProblems = goLeaks(c, input.files, input.env, out);
  const env = { ...input.env, ...out.env };
  for (const [k, v] of Object.entries(out.env)) if (v === undefined) delete env[k];
  const pyProblems = await pythonLeaks(c, env, out);
  const problems = [
    ...pathProblems.map((e) => `PATH has ${e}, a folder of your checkout with no counterpart in the worktree`),
    ...nodeProblems,
    ...goProblems,
    ...pyProblems,
  ];
  if (problems.length) {
    out.refusal =
      `Gates would test your checkout's code, not the worktree's: ${problems.join('; ')}. ` +
      'Ratchet could not point it at the worktree. Make the worktree its own environment — for Python a setup that creates its virtualenv ' +
      '(setup: "python -m venv .venv && .venv/bin/pip install -e ."), for node a setup that installs node_modules — or remove the link into your checkout (PATH, PYTHONPATH, go.work, npm link), then start the run again.';
  }
  return out;
}
