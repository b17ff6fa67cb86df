// The gate tests the worktree's code: an editable install, PYTHONPATH, a PATH entry, a node_modules link or go.work that resolves the project into the user's checkout is pointed at the worktree, or the run is refused with a sentence.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { closeEngine, envEngine, runWorkflow } from '../testing/worktree-env-fixtures';
import { checkCheckoutLeaks } from './checkout-leaks';

let engine: Engine | null = null;
afterEach(async () => {
  if (engine) await closeEngine(engine);
  engine = null;
});

const PYPROJECT =
  '[build-system]\nrequires = ["setuptools>=61", "wheel"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "calcpkg"\nversion = "0.1.0"\n[tool.setuptools.packages.find]\nwhere = ["src"]\n';

/** A src-layout package with a bug (add subtracts) and its unittest, committed. */
function pythonProject(): string {
  return realpathSync(
    makeRepo({
      'pyproject.toml': PYPROJECT,
      'src/calcpkg/__init__.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_add.py':
        'import unittest\nfrom calcpkg import add\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n',
      '.gitignore': '.venv/\n',
    }),
  );
}

/** `python -m venv .venv` in `dir` (without pip: the base Python's pip installs into it). */
function venv(dir: string): string {
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(dir, '.venv')]);
  return join(dir, '.venv');
}

/** The developer's setup the project's docs ask for: `pip install -e .` into the checkout's virtualenv (pip's configured index gives setuptools and wheel). */
function editableInstall(dir: string): void {
  try {
    execFileSync(
      'python3',
      ['-m', 'pip', '--python', join(dir, '.venv', 'bin', 'python'), 'install', '-q', '--disable-pip-version-check', '-e', dir, '--no-deps'],
      { cwd: dir, stdio: 'pipe' },
    );
  } catch (err) {
    throw new Error(
      `the fixture's \`pip install -e .\` failed (pip needs its configured index for setuptools and wheel): ${(err as { stderr?: Buffer }).stderr?.toString() ?? err}`,
      { cause: err },
    );
  }
}

describe('an editable install in the checkout', () => {
  it("on PATH (the developer's activated venv) does not make the gate test the checkout: the agent's fix in the worktree is what the gate imports", async () => {
    const repo = pythonProject();
    venv(repo);
    editableInstall(repo);
    // The bug is real where the gate would import it from: the checkout.
    expect(() =>
      execFileSync(join(repo, '.venv', 'bin', 'python'), ['-m', 'unittest', 'discover', '-s', 'tests'], {
        cwd: tempDir(),
        stdio: 'pipe',
        env: { PATH: process.env.PATH },
      }),
    ).toThrow();
    engine = envEngine({ ...process.env, PATH: `${join(repo, '.venv', 'bin')}:${process.env.PATH}`, VIRTUAL_ENV: join(repo, '.venv') });
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "python -m unittest discover -s tests -v" }
agent: { kind: command, command: ["sh", "-c", "sed -i 's/a - b/a + b/' src/calcpkg/__init__.py"] }
limits: { test_failure: 0 }
flaky_check: false
steps: [{ title: Fix add }]
`,
    );
    expect(r.doc.reason).toBeNull();
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.fixes).toEqual([
      expect.stringMatching(
        /^PYTHONPATH starts with src of the worktree, so calcpkg imports from the worktree, not from the editable install in your checkout$/,
      ),
    ]);
    expect(readFileSync(join(repo, 'src', 'calcpkg', '__init__.py'), 'utf8')).toContain('a - b');
  }, 240_000);
});

describe('checkCheckoutLeaks', () => {
  it('refuses, saying what to change, when PYTHONPATH leads to a folder of the checkout the worktree does not have', async () => {
    const checkout = realpathSync(tempDir('ratchet-checkout-'));
    const worktree = realpathSync(tempDir('ratchet-wt-'));
    mkdirSync(join(checkout, 'vendored'));
    writeFileSync(join(checkout, 'vendored', 'helpers.py'), 'X = 1\n');
    const out = await checkCheckoutLeaks({
      checkout,
      worktree,
      files: ['pyproject.toml'],
      env: { PATH: process.env.PATH, PYTHONPATH: join(checkout, 'vendored') },
    });
    expect(out.refusal).toMatch(
      /^Gates would test your checkout's code, not the worktree's: .*python.* would import the project from your checkout: sys.path has .*\/vendored\. Ratchet could not point it at the worktree\./,
    );
  });

  it("puts the worktree's own virtualenv (made by setup) first on PATH instead of the checkout's, with VIRTUAL_ENV", async () => {
    const checkout = realpathSync(tempDir('ratchet-checkout-'));
    const worktree = realpathSync(tempDir('ratchet-wt-'));
    venv(checkout);
    venv(worktree);
    const out = await checkCheckoutLeaks({ checkout, worktree, files: ['pyproject.toml'], env: { PATH: `${join(checkout, '.venv', 'bin')}:/usr/bin:/bin` } });
    expect(out.refusal).toBeNull();
    expect(out.env).toEqual({ PATH: `${join(worktree, '.venv', 'bin')}:/usr/bin:/bin`, VIRTUAL_ENV: join(worktree, '.venv') });
    expect(out.fixes).toEqual(["the worktree's own virtualenv .venv is first on PATH (VIRTUAL_ENV set)"]);
  });

  it("makes a node_modules link into the checkout lead to the worktree's copy, and refuses one the worktree has no copy of", async () => {
    const checkout = realpathSync(tempDir('ratchet-checkout-'));
    const worktree = realpathSync(tempDir('ratchet-wt-'));
    for (const root of [checkout, worktree]) mkdirSync(join(root, 'packages', 'lib'), { recursive: true });
    mkdirSync(join(checkout, 'linked-elsewhere'));
    mkdirSync(join(worktree, 'node_modules', '@scope'), { recursive: true });
    symlinkSync(join(checkout, 'packages', 'lib'), join(worktree, 'node_modules', '@scope', 'lib'));
    const fixed = await checkCheckoutLeaks({ checkout, worktree, files: [], env: { PATH: '/usr/bin' } });
    expect(fixed.refusal).toBeNull();
    expect(realpathSync(join(worktree, 'node_modules', '@scope', 'lib'))).toBe(join(worktree, 'packages', 'lib'));
    expect(readlinkSync(join(worktree, 'node_modules', '@scope', 'lib'))).toBe('../../packages/lib');
    symlinkSync(join(checkout, 'linked-elsewhere'), join(worktree, 'node_modules', 'other'));
    const refused = await checkCheckoutLeaks({ checkout, worktree, files: [], env: { PATH: '/usr/bin' } });
    expect(refused.refusal).toContain(`node_modules/other links to ${join(checkout, 'linked-elsewhere')}, in your checkout`);
  });

  it("points PATH's node_modules/.bin of the checkout at the worktree's, and refuses a go.work that names the checkout's module by its absolute path", async () => {
    const checkout = realpathSync(tempDir('ratchet-checkout-'));
    const worktree = realpathSync(tempDir('ratchet-wt-'));
    for (const root of [checkout, worktree]) mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(worktree, 'go.work'), `go 1.22\n\nuse (\n\t./\n\t${join(checkout, 'mod')}\n)\n`);
    const out = await checkCheckoutLeaks({
      checkout,
      worktree,
      files: ['go.work', 'go.mod'],
      env: { PATH: `${join(checkout, 'node_modules', '.bin')}:/usr/bin` },
    });
    expect(out.env.PATH).toBe(`${join(worktree, 'node_modules', '.bin')}:/usr/bin`);
    expect(out.refusal).toContain(`go.work names ${join(checkout, 'mod')}, a folder of your checkout, by its absolute path`);
  });
});
