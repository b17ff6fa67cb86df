// Detection for Python projects: a virtualenv in the worktree (pip, uv, poetry or pipenv), the project installed editable so tests import the worktree's code, pytest or unittest.
import { has, shellWord, type EcosystemProposal, type ProjectSnapshot } from './proposal';
import { hasTable, keysOf, subtables, tomlOutline } from './toml-outline';

/** Extras or groups that hold what the tests need, most specific first. */
const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'];

/** Requirements files at the top level: the base one first, then those for tests or development. */
export function requirementsFiles(files: readonly string[]): string[] {
  const all = files.filter((f) => /^([\w-]*requirements[\w.-]*)\.txt$/i.test(f));
  const base = all.filter((f) => /^requirements\.txt$/i.test(f));
  const extra = all.filter((f) => !base.includes(f) && /(dev|test)/i.test(f)).sort();
  return [...base, ...extra];
}

/** `pytest` named as a requirement (not a `[tool.pytest…]` table): in a requirements line, a quoted PEP 508 string or a `pytest = …` key. */
function declaresPytest(text: string): boolean {
  return text.split(/\r?\n/).some((line) => {
    const l = line.trim();
    if (l.startsWith('[') && !l.startsWith('["') && !l.startsWith("['")) return false;
    return /^pytest\b(?![.-])/.test(l) || /["']pytest\s*(["'<>=!~;[,]|$)/.test(l) || /^pytest\s*=/.test(l);
  });
}

export function detectPython(s: ProjectSnapshot): EcosystemProposal | null {
  const reqs = requirementsFiles(s.files);
  const pyprojectText = s.contents['pyproject.toml'];
  const outline = tomlOutline(pyprojectText ?? '');
  const installable =
    hasTable(outline, 'project') || hasTable(outline, 'build-system') || hasTable(outline, 'tool.poetry') || has(s, 'setup.py') || has(s, 'setup.cfg');
  if (!has(s, 'pyproject.toml') && !has(s, 'setup.py') && !has(s, 'setup.cfg') && reqs.length === 0 && !has(s, 'Pipfile')) return null;

  const notes: string[] = [];
  const evidence = ['pyproject.toml', 'setup.py', 'setup.cfg', ...reqs, 'Pipfile'].filter((f) => has(s, f));
  const tool: 'uv' | 'poetry' | 'pipenv' | 'pip' =
    has(s, 'uv.lock') || hasTable(outline, 'tool.uv')
      ? 'uv'
      : has(s, 'poetry.lock') || hasTable(outline, 'tool.poetry')
        ? 'poetry'
        : has(s, 'Pipfile') && !installable && reqs.length === 0
          ? 'pipenv'
          : 'pip';
  if (tool === 'uv' && has(s, 'uv.lock')) evidence.push('uv.lock');
  if (tool === 'poetry' && has(s, 'poetry.lock')) evidence.push('poetry.lock');
  if (tool === 'pipenv' && has(s, 'Pipfile.lock')) evidence.push('Pipfile.lock');

  const texts = [pyprojectText, s.contents['setup.cfg'], s.contents['setup.py'], s.contents.Pipfile, ...reqs.map((r) => s.contents[r])].filter(
    (t): t is string => t !== undefined,
  );
  const pytestConfigured =
    ['pytest.ini', 'conftest.py', 'tests/conftest.py', 'test/conftest.py'].find((f) => has(s, f)) ??
    (hasTable(outline, 'tool.pytest.ini_options') ? 'pyproject.toml [tool.pytest.ini_options]' : undefined) ??
    (/^\[tool:pytest\]/m.test(s.contents['setup.cfg'] ?? '') ? 'setup.cfg [tool:pytest]' : undefined) ??
    (/^\[pytest\]/m.test(s.contents['tox.ini'] ?? '') ? 'tox.ini [pytest]' : undefined);
  const pytestDeclared = texts.some(declaresPytest);
  const pytest = pytestDeclared || pytestConfigured !== undefined;

  const extra = TEST_EXTRAS.find((e) => keysOf(outline, 'project.optional-dependencies').includes(e));
  const setup: EcosystemProposal['setup'] = [];
  const addPytest = pytest && !pytestDeclared;
  if (tool === 'uv') {
    setup.push({
      run: `uv sync${has(s, 'uv.lock') ? ' --frozen' : ''}${extra ? ` --extra ${extra}` : ''}`,
      why: `${has(s, 'uv.lock') ? 'uv.lock' : 'pyproject.toml [tool.uv]'}: a .venv in the worktree with the project installed editable${extra ? ` and its "${extra}" extra` : ''}`,
    });
    if (addPytest) setup.push({ run: 'uv pip install pytest', why: `pytest is configured (${pytestConfigured}) but not declared as a dependency` });
  } else if (tool === 'poetry') {
    const group = TEST_EXTRAS.find((g) => g !== 'dev' && subtables(outline, 'tool.poetry.group').includes(g));
    setup.push({
      run: `POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction${group ? ` --with ${group}` : ''}`,
      why: `${has(s, 'poetry.lock') ? 'poetry.lock' : 'pyproject.toml [tool.poetry]'}: the virtualenv in the worktree (.venv), the project installed editable${group ? `, with the "${group}" group` : ''}`,
    });
    if (addPytest) setup.push({ run: '.venv/bin/pip install pytest', why: `pytest is configured (${pytestConfigured}) but not declared as a dependency` });
  } else if (tool === 'pipenv') {
    setup.push({
      run: `PIPENV_VENV_IN_PROJECT=1 pipenv ${has(s, 'Pipfile.lock') ? 'sync' : 'install'} --dev`,
      why: `Pipfile${has(s, 'Pipfile.lock') ? ' and Pipfile.lock' : ''}: the virtualenv in the worktree (.venv) with the development packages`,
    });
    if (addPytest) setup.push({ run: '.venv/bin/pip install pytest', why: `pytest is configured (${pytestConfigured}) but not declared as a dependency` });
  } else {
    setup.push({
      run: 'python3 -m venv .venv',
      why: "a virtualenv of the worktree's own, so nothing is installed into your Python or imported from your checkout",
    });
    const words = [...reqs.flatMap((r) => ['-r', r]), ...(installable ? ['-e', extra ? `.[${extra}]` : '.'] : []), ...(addPytest ? ['pytest'] : [])];
    const parts = [
      reqs.length ? reqs.join(', ') : null,
      installable
        ? `the project editable (${has(s, 'pyproject.toml') ? 'pyproject.toml' : has(s, 'setup.py') ? 'setup.py' : 'setup.cfg'}${extra ? `, extra "${extra}"` : ''}), so the tests import the worktree's code`
        : null,
      addPytest ? `pytest (configured in ${pytestConfigured}, not declared)` : null,
    ].filter(Boolean);
    setup.push({ run: `.venv/bin/pip install ${words.map(shellWord).join(' ')}`, why: `installs ${parts.join('; ')}` });
  }
  if (has(s, 'Pipfile') && tool !== 'pipenv') notes.push(`A Pipfile is committed too; ${tool} was chosen. Change setup if the project installs with pipenv.`);
  if (tool === 'uv' && has(s, '.python-version'))
    notes.push('uv may download the Python version .python-version names if it is not installed; its download host would then need to be in setup.network.');

  const unittestStart = has(s, 'tests/__init__.py') || !s.files.some((f) => f.startsWith('tests/')) ? '' : ' -s tests';
  const gate = pytest
    ? {
        name: 'test',
        run: '.venv/bin/python -m pytest',
        why: pytestDeclared ? 'pytest is a declared dependency' : `pytest is configured (${pytestConfigured})`,
      }
    : { name: 'test', run: `.venv/bin/python -m unittest discover${unittestStart}`, why: "no pytest declared or configured: the standard library's unittest" };
  return {
    id: 'python',
    label: tool === 'pip' ? 'Python (pip)' : `Python (${tool})`,
    evidence,
    setup,
    network: [{ entry: 'registry:pypi', why: `${tool} installs packages from the index your pip configuration names` }],
    gates: [gate],
    notes,
  };
}
