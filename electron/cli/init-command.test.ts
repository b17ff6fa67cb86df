// `ratchet init`: writes the detected workflow for review, `ratchet check` accepts it, a task runs with it, and it never overwrites without --force.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { create, queue, replace, say, turn } from '../engine/testing/fixture-project';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;

function hasCMake(): boolean {
  try {
    execFileSync('cmake', ['--version'], { stdio: 'ignore' });
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A small C library built with CMake, its tests added in tests/ (add_subdirectory), one of them failing on a bug in the library. */
const C_LIBRARY = {
  'CMakeLists.txt':
    'cmake_minimum_required(VERSION 3.10)\nproject(counter C)\nadd_library(counter src/counter.c)\ntarget_include_directories(counter PUBLIC src)\nenable_testing()\nadd_subdirectory(tests)\n',
  'src/counter.h': 'int add(int a, int b);\n',
  'src/counter.c': '#include "counter.h"\nint add(int a, int b) { return a - b; }\n',
  'tests/CMakeLists.txt': 'add_executable(test_add test_add.c)\ntarget_link_libraries(test_add counter)\nadd_test(NAME test_add COMMAND test_add)\n',
  'tests/test_add.c':
    '#include <stdio.h>\n#include "counter.h"\nint main(void) {\n  if (add(2, 3) != 5) { fprintf(stderr, "%s:%d: expected 5, got %d\\n", __FILE__, __LINE__, add(2, 3)); return 1; }\n  return 0;\n}\n',
};
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ratchet init', () => {
  it('writes ratchet.yml with the detected setup and gates, each with why, and `ratchet check` accepts it', async () => {
    const repo = makeRepo({
      'package.json': '{"name":"lib","scripts":{"test":"node --test","typecheck":"tsc --noEmit"}}',
      'package-lock.json': '{}',
      '.env.example': 'X=\n',
      '.gitignore': '.env\n',
    });
    writeFileSync(join(repo, '.env'), 'X=1\n');
    const r = await cli(['init', repo], { RATCHET_HOME: tempDir() });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Wrote ${join(repo, 'ratchet.yml')}`);
    const text = readFileSync(join(repo, 'ratchet.yml'), 'utf8');
    expect(text).toContain('# Detected: npm (package.json, package-lock.json).');
    expect(text).toMatch(/# package-lock.json: installs exactly the locked versions\n {4}- npm ci\n/);
    expect(text).toMatch(/ {4}- registry:npm\n/);
    expect(text).toMatch(/# package.json scripts.test: node --test\n {2}test: npm test\n/);
    expect(text).toMatch(/copy:\n {2}# .env.example is committed.*\n {2}- .env\n/);
    const check = await cli(['check', join(repo, 'ratchet.yml')], {});
    expect(check.code, check.err).toBe(0);
    expect(check.out).toContain('valid — no steps (each task gives its own), gates: test, typecheck');
  });

  it('refuses to overwrite a workflow file without --force, saying so in a sentence; --force replaces it', async () => {
    const repo = makeRepo({ 'go.mod': 'module example.com/x\n', '.ratchet/workflow.yml': 'steps:\n  - title: mine\n' });
    const file = join(repo, '.ratchet', 'workflow.yml');
    const refused = await cli(['init', repo], {});
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `ratchet: ${file} already exists and was left as it is. Pass --force to replace it with the detected workflow (read \`git diff\` afterwards).\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('steps:\n  - title: mine\n');
    const forced = await cli(['init', repo, '--force', '--json'], {});
    expect(forced.code, forced.err).toBe(0);
    const doc = JSON.parse(forced.out) as { file: string; replaced: boolean; detected: { gates: Array<{ run: string }> } };
    expect(doc).toMatchObject({ file, replaced: true });
    expect(doc.detected.gates.map((g) => g.run)).toEqual(['go test ./...']);
    expect(readFileSync(file, 'utf8')).toContain('  test: go test ./...');
  });

  it('a repository with nothing recognisable gets no empty `gates: {}`: the file and the output say what was not found and what to add (issue 29 item 1c)', async () => {
    const repo = makeRepo({ 'notes.txt': 'hi\n' });
    const r = await cli(['init', repo], {});
    expect(r.code).toBe(0);
    const text = readFileSync(join(repo, 'ratchet.yml'), 'utf8');
    expect(text).not.toMatch(/^gates: \{\}/m);
    expect(text).toMatch(/# No test command was found .*\n# Add the command that runs your tests:\n# gates:\n# {3}test: /);
    expect(r.out).toMatch(/gates: +\(none: no test command was found/);
    // Not the run command (it would be refused): what to add first.
    expect(r.out).not.toMatch(/then run a task/);
    expect(r.out).toMatch(/Add a gate to .*ratchet.yml/);
    // Until a gate is written, the file is not one a run may use: `ratchet check` says so.
    const check = await cli(['check', join(repo, 'ratchet.yml')], {});
    expect(check.code).toBe(1);
    expect(check.err).toMatch(/nothing checks this work/);
  });

  it.skipIf(!hasCMake())(
    'a CMake project with tests: init proposes configure as setup and build + ctest as the gate, check accepts it, and a run fixes the failing test (issue 29 item 5)',
    async () => {
      const repo = makeRepo(C_LIBRARY);
      const init = await cli(['init', repo], {});
      expect(init.code, init.err).toBe(0);
      const text = readFileSync(join(repo, 'ratchet.yml'), 'utf8');
      expect(text).toContain('# Detected: CMake (CMakeLists.txt, tests/CMakeLists.txt).');
      expect(text).toMatch(/setup:\n {2}run:\n {4}# .*\n {4}- cmake -S \. -B build\n/);
      expect(text).toMatch(/\n {2}test: cmake --build build && ctest --test-dir build --output-on-failure\n/);
      const check = await cli(['check', join(repo, 'ratchet.yml')], {});
      expect(check.code, check.err).toBe(0);
      expect(check.out).toContain('gates: test');
      // The run's first gate fails on the bug; the agent's fix is built by the gate before ctest runs it, and the run succeeds.
      server = await startScriptedServer({
        script: { rules: queue(turn(replace('src/counter.c', 'return a - b;', 'return a + b;')), say('Fixed add.')) },
      });
      const env = { RATCHET_HOME: tempDir(), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
      const r = await cli(['run', repo, '--task', 'Fix add', '--description', 'test_add fails: make it pass.', '--yes', '--trust', '--json'], env);
      expect(r.code, r.err).toBe(0);
      const doc = StatusDocument.parse(JSON.parse(r.out));
      expect(doc.status).toBe('succeeded');
      // build/ is setup's output, not the project's: never committed, though the project has no .gitignore.
      const committed = execFileSync('git', ['-C', repo, 'ls-tree', '-r', '--name-only', doc.branch], { encoding: 'utf8' }).split('\n');
      expect(committed).toContain('src/counter.c');
      expect(committed.filter((f) => f.startsWith('build/'))).toEqual([]);
      expect(execFileSync('git', ['-C', repo, 'show', `${doc.branch}:src/counter.c`], { encoding: 'utf8' })).toContain('return a + b;');
    },
  );

  it('prints a next command that works as printed without a terminal (issue 29 item 8)', async () => {
    const repo = makeRepo({
      Makefile: 'test:\n\tnode --test\n',
      'test/done.test.mjs':
        "import { test } from 'node:test';\nimport { existsSync } from 'node:fs';\ntest('done', () => { if (!existsSync('done.txt')) throw new Error('no done.txt'); });\n",
    });
    const init = await cli(['init', repo], {});
    const printed = /then run a task: `ratchet (run [^`]+)`/.exec(init.out)?.[1];
    expect(printed, init.out).toBeDefined();
    const args = printed!.replace('"<title>"', 'Write-done').split(' ');
    server = await startScriptedServer({ script: { rules: queue(turn(create('done.txt', 'done\n')), say('Created done.txt.')) } });
    const r = await cli([...args, '--yes', '--json'], { RATCHET_HOME: tempDir(), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    expect(r.code, r.err).toBe(0);
    expect(StatusDocument.parse(JSON.parse(r.out)).status).toBe('succeeded');
  });

  it('a task runs with the file init wrote: --task gives the one step, its description the prompt; without a task the run says what to pass', async () => {
    const repo = makeRepo({
      Makefile: 'test:\n\tnode --test\n',
      'test/done.test.mjs':
        "import { test } from 'node:test';\nimport { existsSync } from 'node:fs';\ntest('done', () => { if (!existsSync('done.txt')) throw new Error('no done.txt'); });\n",
    });
    expect((await cli(['init', repo], {})).code).toBe(0);
    const home = tempDir();
    server = await startScriptedServer({ script: { rules: queue(turn(create('done.txt', 'done\n')), say('Created done.txt.')) } });
    const env = { RATCHET_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const none = await cli(['run', repo, '--yes', '--trust', '--json'], env);
    expect(none.code).toBe(2);
    expect(none.err).toContain('has no steps: each task gives its own. Pass --task "<title>"');
    const r = await cli(['run', repo, '--task', 'Write done.txt', '--description', 'Create done.txt so make test passes.', '--yes', '--trust', '--json'], env);
    expect(r.code, r.err).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('succeeded');
    expect(doc.steps.map((s) => s.title)).toEqual(['Write done.txt']);
    expect(JSON.stringify(server.requests[0])).toContain('Create done.txt so make test passes.');
  });
});
