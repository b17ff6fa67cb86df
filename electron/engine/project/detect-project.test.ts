import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sh, tempDir } from '../testing/temp-repo';
import { detectProject, proposeWorkflow } from './detect-project';
import type { ProjectSnapshot } from './proposal';

function hasTool(tool: string): boolean {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    try {
      execFileSync(tool, ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }
}

/** A repository made as a developer makes one: `init` runs the real tool in it, then `files` are written and everything is committed. */
function project(files: Record<string, string>, init?: (dir: string) => void, uncommitted: Record<string, string> = {}): string {
  const dir = tempDir('ratchet-detect-');
  sh(dir, 'init', '-q', '-b', 'main');
  init?.(dir);
  const write = (all: Record<string, string>) => {
    for (const [path, content] of Object.entries(all)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  write(files);
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-q', '-m', 'initial');
  write(uncommitted);
  return dir;
}

const run = (dir: string, cmd: string, ...args: string[]) =>
  execFileSync(cmd, args, { cwd: dir, stdio: 'pipe', env: { ...process.env, npm_config_yes: 'true' } });

function snapshot(files: Record<string, string>, ignoredInCheckout: string[] = []): ProjectSnapshot {
  return { files: Object.keys(files), contents: files, ignoredInCheckout };
}

describe('detectProject over real project layouts', () => {
  it.skipIf(!hasTool('npm'))('an npm package with a lockfile and a test script: npm ci with the npm registry, npm test as the gate', async () => {
    const dir = project({ 'index.test.js': 'require("node:test")("ok", () => {});\n' }, (d) => {
      run(d, 'npm', 'init', '-y');
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8'));
      pkg.scripts = { test: 'node --test', typecheck: 'tsc --noEmit' };
      writeFileSync(join(d, 'package.json'), JSON.stringify(pkg, null, 2));
      run(d, 'npm', 'install', '--package-lock-only', '--offline');
    });
    const p = await detectProject(dir);
    expect(p.found).toEqual([{ ecosystem: 'node', label: 'npm', evidence: ['package.json', 'package-lock.json'] }]);
    expect(p.setup.map((s) => s.run)).toEqual(['npm ci']);
    expect(p.network.map((n) => n.entry)).toEqual(['registry:npm']);
    expect(p.gates.map((g) => [g.name, g.run])).toEqual([
      ['test', 'npm test'],
      ['typecheck', 'npm run typecheck'],
    ]);
    expect(p.gates[0]?.why).toContain('node --test');
  });

  it.skipIf(!hasTool('npm'))('`npm init`’s placeholder test script is not a gate, and says why', async () => {
    const dir = project({}, (d) => run(d, 'npm', 'init', '-y'));
    const p = await detectProject(dir);
    expect(p.gates).toEqual([]);
    expect(p.setup.map((s) => s.run)).toEqual(['npm install']);
    expect(p.notes.join('\n')).toMatch(/placeholder/);
  });

  it('a lockfile in the checkout that is not committed does not count: the worktree will not have it', async () => {
    const dir = project({ 'package.json': '{"scripts":{"test":"vitest run"}}', '.gitignore': 'package-lock.json\n' }, undefined, { 'package-lock.json': '{}' });
    expect((await detectProject(dir)).setup.map((s) => s.run)).toEqual(['npm install']);
  });

  it('a repository without package.json never gets npm test', async () => {
    const dir = project({ 'main.py': 'print(1)\n', 'requirements.txt': 'requests==2.31.0\n' });
    const p = await detectProject(dir);
    expect(JSON.stringify(p)).not.toMatch(/npm/);
    expect(p.gates.map((g) => g.run)).toEqual(['.venv/bin/python -m unittest discover']);
  });

  it('a Python package with pytest in its test extra: a venv in the worktree, the project installed editable with the extra, pytest from the venv', async () => {
    const dir = project({
      'pyproject.toml': [
        '[build-system]',
        'requires = ["setuptools>=61"]',
        'build-backend = "setuptools.build_meta"',
        '',
        '[project]',
        'name = "calc"',
        'version = "0.1.0"',
        'dependencies = [',
        '  "attrs>=22",',
        ']',
        '',
        '[project.optional-dependencies]',
        'docs = ["sphinx"]',
        'test = [',
        '  "pytest>=7",',
        '  "pytest-cov",',
        ']',
        '',
        '[tool.pytest.ini_options]',
        'testpaths = ["tests"]',
        '',
      ].join('\n'),
      'src/calc/__init__.py': '',
      'tests/test_calc.py': 'def test_one():\n    assert 1\n',
    });
    const p = await detectProject(dir);
    expect(p.found.map((f) => f.label)).toEqual(['Python (pip)']);
    expect(p.setup.map((s) => s.run)).toEqual(['python3 -m venv .venv', ".venv/bin/pip install -e '.[test]'"]);
    expect(p.network.map((n) => n.entry)).toEqual(['registry:pypi']);
    expect(p.gates).toEqual([expect.objectContaining({ name: 'test', run: '.venv/bin/python -m pytest', why: 'pytest is a declared dependency' })]);
  });

  it.skipIf(!hasTool('python3'))(
    'the proposed pip setup builds a working venv and the gate runs the worktree’s tests (unittest, no network needed)',
    async () => {
      const dir = project({
        'requirements.txt': '\n',
        'tests/test_one.py': 'import unittest\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertTrue(True)\n',
      });
      const p = await detectProject(dir);
      for (const s of [...p.setup, ...p.gates]) execFileSync('sh', ['-c', s.run], { cwd: dir, stdio: 'pipe' });
      expect(p.gates[0]?.run).toBe('.venv/bin/python -m unittest discover -s tests');
    },
    120_000,
  );

  it('uv, poetry and pipenv projects set up with their own tool, into .venv in the worktree', () => {
    const uv = proposeWorkflow(snapshot({ 'pyproject.toml': '[project]\nname = "a"\n[project.optional-dependencies]\ntests = ["pytest"]\n', 'uv.lock': '' }));
    expect(uv.setup.map((s) => s.run)).toEqual(['uv sync --frozen --extra tests']);
    expect(uv.found[0]?.label).toBe('Python (uv)');
    const poetry = proposeWorkflow(
      snapshot({ 'pyproject.toml': '[tool.poetry]\nname = "a"\n[tool.poetry.group.test.dependencies]\npytest = "^8"\n', 'poetry.lock': '' }),
    );
    expect(poetry.setup.map((s) => s.run)).toEqual(['POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --with test']);
    expect(poetry.gates[0]?.run).toBe('.venv/bin/python -m pytest');
    const pipenv = proposeWorkflow(snapshot({ Pipfile: '[dev-packages]\npytest = "*"\n', 'Pipfile.lock': '{}' }));
    expect(pipenv.setup.map((s) => s.run)).toEqual(['PIPENV_VENV_IN_PROJECT=1 pipenv sync --dev']);
  });

  it('requirements files: the base one and the test/dev ones; pytest configured but not declared is installed too', () => {
    const p = proposeWorkflow(
      snapshot({
        'requirements.txt': 'flask\n',
        'requirements-dev.txt': 'black\n',
        'requirements-docs.txt': 'sphinx\n',
        'setup.py': 'from setuptools import setup\nsetup()\n',
        'pytest.ini': '[pytest]\n',
      }),
    );
    expect(p.setup.map((s) => s.run)).toEqual(['python3 -m venv .venv', '.venv/bin/pip install -r requirements.txt -r requirements-dev.txt -e . pytest']);
    expect(p.setup[1]?.why).toMatch(/pytest \(configured in pytest.ini, not declared\)/);
  });

  it.skipIf(!hasTool('cargo'))('a crate made by cargo init: cargo test, and no setup until it names a dependency', async () => {
    const dir = project({}, (d) => run(d, 'cargo', 'init', '--lib', '--vcs', 'none', '--name', 'demo'));
    const p = await detectProject(dir);
    expect(p.found.map((f) => f.label)).toEqual(['Cargo']);
    expect(p.setup).toEqual([]);
    expect(p.gates.map((g) => g.run)).toEqual(['cargo test']);
    const withDeps = proposeWorkflow(snapshot({ 'Cargo.toml': `${readFileSync(join(dir, 'Cargo.toml'), 'utf8')}\nserde = "1"\n`, 'Cargo.lock': '' }));
    expect(withDeps.setup.map((s) => s.run)).toEqual(['cargo fetch --locked']);
    expect(withDeps.network.map((n) => n.entry)).toEqual(['registry:cargo']);
    const workspace = proposeWorkflow(snapshot({ 'Cargo.toml': '[package]\nname = "a"\n[workspace]\nmembers = [\n  "b",\n]\n' }));
    expect(workspace.gates[0]?.run).toBe('cargo test --workspace');
  });

  it.skipIf(!hasTool('go'))('a module made by go mod init: go test ./..., and go mod download once it requires modules', async () => {
    const dir = project({ 'calc.go': 'package demo\n' }, (d) => run(d, 'go', 'mod', 'init', 'example.com/demo'));
    const p = await detectProject(dir);
    expect(p.found.map((f) => f.label)).toEqual(['Go modules']);
    expect(p.setup).toEqual([]);
    expect(p.gates.map((g) => g.run)).toEqual(['go test ./...']);
    const requires = proposeWorkflow(snapshot({ 'go.mod': `${readFileSync(join(dir, 'go.mod'), 'utf8')}\nrequire golang.org/x/text v0.3.0\n` }));
    expect(requires.setup.map((s) => s.run)).toEqual(['go mod download']);
    expect(requires.network.map((n) => n.entry)).toEqual(['registry:go']);
  });

  it('pnpm, yarn and bun: the packageManager field first, else the lockfile, each with its own frozen install and test command', () => {
    const pnpm = proposeWorkflow(snapshot({ 'package.json': '{"packageManager":"pnpm@9.1.0","scripts":{"test":"vitest run"}}', 'pnpm-lock.yaml': '' }));
    expect([pnpm.setup[0]?.run, pnpm.gates[0]?.run]).toEqual(['pnpm install --frozen-lockfile', 'pnpm test']);
    const berry = proposeWorkflow(snapshot({ 'package.json': '{"scripts":{"test":"jest"}}', 'yarn.lock': '', '.yarnrc.yml': '' }));
    expect([berry.setup[0]?.run, berry.gates[0]?.run]).toEqual(['yarn install --immutable', 'yarn test']);
    const classic = proposeWorkflow(snapshot({ 'package.json': '{"scripts":{"test":"jest"}}', 'yarn.lock': '' }));
    expect(classic.setup[0]?.run).toBe('yarn install --frozen-lockfile');
    // `bun test` is bun's own runner, not the project's script.
    const bun = proposeWorkflow(snapshot({ 'package.json': '{"scripts":{"test":"vitest run"}}', 'bun.lockb': '' }));
    expect([bun.setup[0]?.run, bun.gates[0]?.run]).toEqual(['bun install --frozen-lockfile', 'bun run test']);
    const both = proposeWorkflow(snapshot({ 'package.json': '{"scripts":{"test":"x"}}', 'yarn.lock': '', 'package-lock.json': '' }));
    expect(both.notes.join(' ')).toMatch(/more than one package manager/);
  });

  it('Maven and Gradle: the wrapper when committed, the test task as the gate, and the wrapper’s download host read from its own properties', () => {
    const maven = proposeWorkflow(snapshot({ 'pom.xml': '<project/>', mvnw: '' }));
    expect([maven.setup[0]?.run, maven.gates[0]?.run, maven.network[0]?.entry]).toEqual([
      './mvnw -B -q dependency:go-offline',
      './mvnw -B -q test',
      'registry:maven',
    ]);
    const gradle = proposeWorkflow(
      snapshot({
        'build.gradle.kts': '',
        gradlew: '',
        'gradle/wrapper/gradle-wrapper.properties': 'distributionUrl=https\\://dist.example.com/gradle-8.5-bin.zip\n',
      }),
    );
    expect(gradle.gates[0]?.run).toBe('./gradlew --no-daemon test');
    expect(gradle.network.map((n) => n.entry)).toEqual(['registry:maven', 'dist.example.com']);
  });

  it('a Makefile’s test target is the gate when nothing else is recognised, and only mentioned beside a recognised toolchain', () => {
    const make = proposeWorkflow(snapshot({ Makefile: 'CC := cc\nall: prog\n\ntest: prog\n\tpytest -q tests\n' }));
    expect(make.gates.map((g) => g.run)).toEqual(['make test']);
    const noTarget = proposeWorkflow(snapshot({ Makefile: 'all:\n\tcc main.c\n' }));
    expect(noTarget.gates).toEqual([]);
    expect(noTarget.notes.join(' ')).toMatch(/write your test command as a gate/);
    const goAndMake = proposeWorkflow(snapshot({ 'go.mod': 'module x\n', Makefile: 'test:\n\tgo test -race ./...\n' }));
    expect(goAndMake.gates.map((g) => g.run)).toEqual(['go test ./...']);
    expect(goAndMake.notes.join(' ')).toMatch(/make test/);
  });

  it('a Makefile target that runs no test runner is not a gate (a legacy `make test` running a demo): init says what it found and what to add (issue 29 item 1b)', () => {
    const legacy = proposeWorkflow(snapshot({ Makefile: 'all: demo\n\ntest: demo\n\t./demo --run\n\t@echo done\n' }));
    expect(legacy.gates).toEqual([]);
    expect(legacy.notes.join(' ')).toMatch(/Makefile has a `test` target, but it runs no test runner Ratchet knows \(`\.\/demo --run; @echo done`\)/);
    // CMake with tests (ctest) is the project's real runner: it is the gate, the legacy target stays a note.
    const cmake = proposeWorkflow(
      snapshot({ Makefile: 'test:\n\t./demo\n', 'CMakeLists.txt': 'project(x C)\nenable_testing()\nadd_test(NAME t COMMAND t)\n' }),
    );
    expect(cmake.gates.map((g) => g.run)).toEqual(['cmake --build build && ctest --test-dir build --output-on-failure']);
    expect(cmake.notes.join(' ')).toMatch(/Makefile has a `test` target, but it runs no test runner/);
    // A recipe that delegates to a runner is one: ctest, go test, cargo test, node --test, a make -C into the tests' folder is not.
    for (const recipe of [
      'ctest --output-on-failure',
      'cd build && ctest',
      'python -m pytest',
      'go test ./...',
      'node --test',
      '$(MAKE) -C build test && ctest',
    ])
      expect(
        proposeWorkflow(snapshot({ Makefile: `test:\n\t${recipe}\n` })).gates.map((g) => g.run),
        recipe,
      ).toEqual(['make test']);
  });

  it('CMake with tests: setup configures build/, the gate builds it and runs ctest; without tests it is only a note (issue 29 item 5)', () => {
    const root = 'cmake_minimum_required(VERSION 3.10)\nproject(x C)\nadd_library(x src/x.c)\n';
    const inRoot = proposeWorkflow(snapshot({ 'CMakeLists.txt': `${root}enable_testing()\nadd_test(NAME t COMMAND t)\n` }));
    expect(inRoot.found).toEqual([{ ecosystem: 'cmake', label: 'CMake', evidence: ['CMakeLists.txt'] }]);
    expect(inRoot.setup.map((x) => x.run)).toEqual(['cmake -S . -B build']);
    expect(inRoot.gates.map((g) => [g.name, g.run])).toEqual([['test', 'cmake --build build && ctest --test-dir build --output-on-failure']]);
    // include(CTest) enables testing too; a commented-out add_test is no test.
    expect(proposeWorkflow(snapshot({ 'CMakeLists.txt': `${root}include(CTest)\nadd_test(NAME t COMMAND t)\n` })).gates).toHaveLength(1);
    const commented = proposeWorkflow(snapshot({ 'CMakeLists.txt': `${root}enable_testing()\n# add_test(NAME t COMMAND t)\n` }));
    expect(commented.gates).toEqual([]);
    expect(commented.notes.join(' ')).toMatch(/enables testing but no add_test was found/);
    // Tests added without enable_testing() in the root: ctest at build/ would find none, so nothing is proposed.
    const notEnabled = proposeWorkflow(snapshot({ 'CMakeLists.txt': `${root}add_test(NAME t COMMAND t)\n` }));
    expect(notEnabled.gates).toEqual([]);
    expect(notEnabled.notes.join(' ')).toMatch(/does not call enable_testing\(\)/);
    // FetchContent needs the network at configure time: said, not guessed.
    const fetches = proposeWorkflow(
      snapshot({ 'CMakeLists.txt': `${root}include(FetchContent)\nFetchContent_Declare(u URL x)\nenable_testing()\nadd_test(NAME t COMMAND t)\n` }),
    );
    expect(fetches.notes.join(' ')).toMatch(/FetchContent.*setup.network/);
  });

  it('CMake whose tests are added in a folder the root adds (add_subdirectory(tests)): read from the committed tree', async () => {
    const dir = project({
      'CMakeLists.txt':
        'cmake_minimum_required(VERSION 3.10)\nproject(r C)\nadd_library(r src/r.c)\nenable_testing()\nadd_subdirectory(tests)\nadd_subdirectory(../outside)\n',
      'src/r.c': 'int r(void) { return 1; }\n',
      'tests/CMakeLists.txt': 'add_executable(t t.c)\nadd_test(NAME t COMMAND t)\n',
      'tests/t.c': 'int main(void) { return 0; }\n',
    });
    const p = await detectProject(dir);
    expect(p.found).toEqual([{ ecosystem: 'cmake', label: 'CMake', evidence: ['CMakeLists.txt', 'tests/CMakeLists.txt'] }]);
    expect(p.gates.map((g) => g.run)).toEqual(['cmake --build build && ctest --test-dir build --output-on-failure']);
    // The same layout with the tests' folder not added: no test is known, no gate.
    const none = project({ 'CMakeLists.txt': 'project(r C)\nenable_testing()\n', 'tests/CMakeLists.txt': 'add_test(NAME t COMMAND t)\n' });
    expect((await detectProject(none)).gates).toEqual([]);
  });

  it('two ecosystems: both gates, named apart; a package.json that only holds tooling is not set up', () => {
    const both = proposeWorkflow(snapshot({ 'go.mod': 'module x\n', 'package.json': '{"scripts":{"test":"vitest run"}}', 'package-lock.json': '' }));
    expect(both.gates.map((g) => [g.name, g.run])).toEqual([
      ['test', 'npm test'],
      ['test-go', 'go test ./...'],
    ]);
    const tooling = proposeWorkflow(snapshot({ 'go.mod': 'module x\n', 'package.json': '{"devDependencies":{"prettier":"3"}}' }));
    expect(tooling.setup).toEqual([]);
    expect(tooling.gates.map((g) => g.run)).toEqual(['go test ./...']);
    expect(tooling.notes.join(' ')).toMatch(/package.json \(npm\) proposes no gate/);
  });

  it('copies .env when .env.example is committed and the checkout has its own .env that git ignores', async () => {
    const dir = project({ '.env.example': 'API_URL=\n', '.gitignore': '.env\n', 'go.mod': 'module x\n' }, undefined, { '.env': 'API_URL=http://localhost\n' });
    const p = await detectProject(dir);
    expect(p.copy).toEqual([{ glob: '.env', why: '.env.example is committed and your checkout has its own .env, which git ignores' }]);
    // Without the developer's own .env there is nothing to copy.
    const none = project({ '.env.example': 'API_URL=\n', '.gitignore': '.env\n', 'go.mod': 'module x\n' });
    expect((await detectProject(none)).copy).toEqual([]);
  });
});
