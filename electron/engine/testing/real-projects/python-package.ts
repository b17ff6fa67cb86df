// Fixture: a Python package (pyproject, src layout) developed in a venv with an editable install, as its README says; a real version-ordering bug.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { replace, say, turn } from '../fixture-project';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, run, Unavailable, type RealProject } from './real-project';

const PYPROJECT = `[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "relpick"
version = "0.3.0"
description = "Pick the release to upgrade to from the versions an index lists."
readme = "README.md"
requires-python = ">=3.8"
dependencies = ["packaging>=21"]

[project.optional-dependencies]
test = ["pytest>=7"]

[tool.pytest.ini_options]
testpaths = ["tests"]
`;

const INIT = `"""Pick the release to upgrade to from the versions an index lists."""
from typing import Iterable, Optional

from packaging.version import Version

__all__ = ["latest_stable"]


def latest_stable(versions: Iterable[str]) -> Optional[str]:
    """The highest version that is not a pre-release, or None when there is none."""
    candidates = [v for v in versions if not Version(v).is_prerelease]
    return max(candidates, default=None)
`;

const TESTS = `from relpick import latest_stable


def test_skips_pre_releases():
    assert latest_stable(["1.0.0", "1.1.0rc1"]) == "1.0.0"


def test_compares_versions_numerically():
    assert latest_stable(["1.9.0", "1.10.0", "1.2.0"]) == "1.10.0"


def test_accepts_post_releases():
    assert latest_stable(["2.0.0", "2.0.0.post1"]) == "2.0.0.post1"


def test_nothing_to_pick():
    assert latest_stable(["3.0.0a1"]) is None
`;

const README = `# relpick

Pick the release to upgrade to from the versions an index lists.

## Development

    python3 -m venv .venv
    . .venv/bin/activate
    pip install -e '.[test]'
    pytest
`;

/** Why this machine cannot build the Python fixture, else null (pip's index is tried when the venv is made). */
export function pythonUnavailable(): string | null {
  if (!has('python3')) return 'python3 is not installed';
  const venv = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' });
  if (venv.status !== 0) return 'python3 has no venv/ensurepip module (Debian/Ubuntu: python3-venv)';
  return null;
}

/**
 * The package as its developer has it: `.venv` in the checkout (gitignored) with the package installed editable
 * (its .pth names the checkout's src/) and pytest from pip's configured index; Ratchet is started from that
 * activated shell, so the venv's bin is first on PATH.
 */
export function makePythonPackage(): RealProject {
  const why = pythonUnavailable();
  if (why) throw new Unavailable(why);
  const repo = gitProject('python', {
    'pyproject.toml': PYPROJECT,
    'README.md': README,
    '.gitignore': '.venv/\n__pycache__/\n*.egg-info/\n.pytest_cache/\nbuild/\n',
    'src/relpick/__init__.py': INIT,
    'tests/test_latest.py': TESTS,
  });
  commitAll(repo, 'relpick 0.3.0');
  run(repo, 'python3', ['-m', 'venv', '.venv']);
  try {
    // pip as configured on this machine (its index, certificates); no retries, so an unreachable index is said at once.
    run(repo, join(repo, '.venv', 'bin', 'pip'), ['install', '--retries', '0', '-e', '.[test]'], { timeoutMs: 600_000 });
  } catch (err) {
    throw new Unavailable(`pip could not install the package and pytest from its configured index: ${(err as Error).message.split('\n').slice(-3).join(' ')}`);
  }
  const venvBin = join(repo, '.venv', 'bin');
  const shellEnv = developerEnv({ PATH: `${venvBin}:${process.env.PATH ?? ''}`, VIRTUAL_ENV: join(repo, '.venv') });
  const failingTest = 'test_compares_versions_numerically';
  confirmBug(repo, 'pytest', shellEnv, failingTest);
  return {
    ecosystem: 'python',
    repo,
    testCommand: 'pytest',
    shellEnv,
    step: {
      title: 'Compare versions numerically in latest_stable',
      prompt: 'latest_stable(["1.9.0", "1.10.0"]) returns "1.9.0": versions are compared as text. Fix it in src/relpick/__init__.py; the tests are in tests/.',
    },
    failingTest,
    attempts: [
      [
        bash('cat src/relpick/__init__.py'),
        // Incomplete: numeric parts only, so a post-release ("2.0.0.post1") is no longer understood.
        turn(
          replace(
            'src/relpick/__init__.py',
            'return max(candidates, default=None)',
            'return max(candidates, key=lambda v: tuple(int(p) for p in v.split(".")), default=None)',
          ),
        ),
        say('latest_stable now compares the numeric parts of each version.'),
      ],
      [
        turn(replace('src/relpick/__init__.py', 'key=lambda v: tuple(int(p) for p in v.split(".")),', 'key=Version,')),
        say('latest_stable orders candidates with packaging.version.Version, as PEP 440 says.'),
      ],
    ],
    attempt1FailingTest: 'test_accepts_post_releases',
    fixFiles: ['src/relpick/__init__.py'],
    untrackedDirs: ['.venv'],
  };
}

/** Where the checkout's venv imports the package from (must stay the checkout's src/ whatever a run does). */
export function importedFrom(repo: string): string {
  return run(repo, join(repo, '.venv', 'bin', 'python'), ['-c', 'import relpick; print(relpick.__file__)'], { cwd: '/' }).trim();
}
