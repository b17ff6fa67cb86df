// Asks the Python a gate would run (in the run's sandbox, in the worktree) where it finds code: sys.path, .pth lines, egg-links, setuptools' editable finders, and where the project's modules import from.
import { runGate } from '../gates/run-gate';
import type { RunJail } from '../sandbox/os-sandbox';

/** One place Python is told to find code. */
export interface PythonRef {
  /** `pth` a path line in a .pth file, `egg-link` a setup.py develop link, `finder` a setuptools editable finder's MAPPING, `path` a sys.path entry (PYTHONPATH…). */
  kind: 'pth' | 'egg-link' | 'finder' | 'path';
  /** The file that says so (none for a sys.path entry). */
  file: string | null;
  /** The module a finder maps (finder only). */
  name: string | null;
  target: string;
}

export interface PythonProbe {
  executable: string;
  prefix: string;
  refs: PythonRef[];
  /** Where each asked-for top-level module imports from (null: not found), the current folder left out of sys.path as a console script would. */
  origins: Record<string, string | null>;
}

const MARK = 'RATCHET-PYTHON-PROBE ';

// No single quotes: it is passed to the shell inside single quotes.
const SCRIPT = `
import sys, os, json, glob, re, ast, importlib.util
refs = []
seen = set()
for d in list(sys.path):
    if not d or d in seen or not os.path.isdir(d):
        continue
    seen.add(d)
    for f in sorted(glob.glob(os.path.join(d, "*.pth"))):
        try:
            for line in open(f, encoding="utf-8", errors="replace"):
                line = line.strip()
                if not line or line.startswith("#") or re.match(r"import[ \\t]", line):
                    continue
                refs.append({"kind": "pth", "file": f, "name": None, "target": os.path.abspath(os.path.join(d, line))})
        except OSError:
            pass
    for f in sorted(glob.glob(os.path.join(d, "*.egg-link"))):
        try:
            first = open(f, encoding="utf-8").readline().strip()
            if first:
                refs.append({"kind": "egg-link", "file": f, "name": None, "target": os.path.abspath(os.path.join(d, first))})
        except OSError:
            pass
    for f in sorted(glob.glob(os.path.join(d, "__editable__*finder.py"))):
        try:
            m = re.search(r"^MAPPING\\s*(?::[^=\\n]*)?=\\s*(\\{.*?\\})\\s*$", open(f, encoding="utf-8").read(), re.M | re.S)
            if m:
                for name, target in ast.literal_eval(m.group(1)).items():
                    refs.append({"kind": "finder", "file": f, "name": name, "target": os.path.abspath(target)})
        except Exception:
            pass
for p in sys.path:
    if p:
        refs.append({"kind": "path", "file": None, "name": None, "target": os.path.abspath(p)})
cwd = os.getcwd()
sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != cwd]
names = [n for n in os.environ.get("RATCHET_PY_NAMES", "").split(",") if n]
origins = {}
for n in names:
    try:
        spec = importlib.util.find_spec(n)
        origins[n] = (spec.origin if spec.origin and spec.origin != "namespace" else (list(spec.submodule_search_locations or [None])[0])) if spec else None
    except Exception:
        origins[n] = None
print("${MARK}" + json.dumps({"executable": sys.executable, "prefix": sys.prefix, "refs": refs, "origins": origins}))
`;

/**
 * Runs the probe with the first of `python3`/`python` on the sandbox's PATH, in `cwd`, with `env` (the jail's, plus
 * any change being tried). `names`: top-level modules to locate. Null when there is no Python or it could not say.
 */
export async function probePython(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  jail?: RunJail;
  names?: readonly string[];
  signal?: AbortSignal;
}): Promise<PythonProbe | null> {
  const env = { ...opts.env, RATCHET_PY_NAMES: (opts.names ?? []).join(',') };
  const jail = opts.jail
    ? {
        ...opts.jail,
        env,
        wrap: (shell: string, command: string, o?: { extraHosts?: readonly string[]; env?: NodeJS.ProcessEnv }) =>
          opts.jail!.wrap(shell, command, { ...o, env }),
      }
    : undefined;
  const run = `if command -v python3 >/dev/null 2>&1; then exec python3 -c '${SCRIPT}'; elif command -v python >/dev/null 2>&1; then exec python -c '${SCRIPT}'; fi`;
  const r = await runGate({ name: 'python-probe', run, timeoutS: 60 }, { cwd: opts.cwd, env, jail, signal: opts.signal });
  const line = r.output.split('\n').find((l) => l.startsWith(MARK));
  if (!line) return null;
  try {
    return JSON.parse(line.slice(MARK.length)) as PythonProbe;
  } catch {
    return null;
  }
}
