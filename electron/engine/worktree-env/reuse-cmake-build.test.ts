// A CMake checkout's configured build/ lent to the worktree (issue 29, 5): the worktree's first build compiles nothing
// that did not change, builds into the worktree (never the checkout), and a changed source is still rebuilt.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { has } from '../testing/real-projects/real-project';
import { sh, tempDir } from '../testing/temp-repo';
import { reuseDependencies } from './reuse-deps';
import { cacheHome } from './reuse-cmake-build';

const CMAKE = has('cmake') && has('cc');

function cmake(cwd: string, ...args: string[]): string {
  const r = spawnSync('cmake', args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`cmake ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** A C library with a test, configured and built in the checkout as its developer has it. */
function cmakeCheckout(): { checkout: string; worktree: string; files: string[] } {
  const root = realpathSync(tempDir('ratchet-cmake-reuse-'));
  const checkout = join(root, 'ring');
  mkdirSync(join(checkout, 'src'), { recursive: true });
  mkdirSync(join(checkout, 'test'));
  writeFileSync(
    join(checkout, 'CMakeLists.txt'),
    'cmake_minimum_required(VERSION 3.16)\nproject(ring C)\nenable_testing()\nadd_library(ring src/ring.c)\ntarget_include_directories(ring PUBLIC src)\nadd_executable(test_ring test/test_ring.c)\ntarget_link_libraries(test_ring ring)\nadd_test(NAME test_ring COMMAND test_ring)\n',
  );
  writeFileSync(join(checkout, 'src', 'ring.h'), 'int ring_next(int i, int n);\n');
  writeFileSync(join(checkout, 'src', 'ring.c'), '#include "ring.h"\nint ring_next(int i, int n) { return (i + 1) % n; }\n');
  writeFileSync(join(checkout, 'test', 'test_ring.c'), '#include "ring.h"\nint main(void) { return ring_next(2, 3) == 0 ? 0 : 1; }\n');
  writeFileSync(join(checkout, '.gitignore'), 'build/\n');
  sh(checkout, 'init', '-q', '-b', 'main');
  sh(checkout, 'add', '-A');
  sh(checkout, 'commit', '-qm', 'ring');
  cmake(checkout, '-S', '.', '-B', 'build');
  cmake(checkout, '--build', 'build');
  const worktree = join(root, 'wt');
  sh(checkout, 'worktree', 'add', '-q', '-b', 'task', worktree);
  return { checkout, worktree, files: sh(worktree, 'ls-files').split('\n') };
}

describe.skipIf(!CMAKE)(`a CMake checkout's build folder${CMAKE ? '' : ' (skipped: cmake or a C compiler is not installed)'}`, () => {
  it('is reused by the worktree: configure finds its cache, the first build compiles nothing, a changed source is rebuilt, the checkout untouched', async () => {
    const { checkout, worktree, files } = cmakeCheckout();
    const before = statSync(join(checkout, 'build', 'CMakeFiles', 'ring.dir', 'src', 'ring.c.o')).mtimeMs;
    const r = await reuseDependencies(checkout, worktree, files);
    expect(r.reused.map((x) => x.path)).toEqual(['build/']);
    expect(cacheHome(readFileSync(join(worktree, 'build', 'CMakeCache.txt'), 'utf8'))).toBe(worktree);
    cmake(worktree, '-S', '.', '-B', 'build');
    const build = cmake(worktree, '--build', 'build');
    expect(build).not.toMatch(/Building C object/);
    appendFileSync(join(worktree, 'src', 'ring.c'), 'int ring_size(void) { return 0; }\n');
    expect(cmake(worktree, '--build', 'build')).toMatch(/Building C object CMakeFiles\/ring\.dir\/src\/ring\.c\.o/);
    // The build went to the worktree's folder: the checkout's object is as it was.
    expect(statSync(join(checkout, 'build', 'CMakeFiles', 'ring.dir', 'src', 'ring.c.o')).mtimeMs).toBe(before);
    expect(statSync(join(worktree, 'build', 'CMakeFiles', 'ring.dir', 'src', 'ring.c.o')).mtimeMs).toBeGreaterThan(before);
  }, 120_000);

  it('is not reused when its cache was configured for another folder (said in a note)', async () => {
    const { checkout, worktree, files } = cmakeCheckout();
    const cache = join(checkout, 'build', 'CMakeCache.txt');
    writeFileSync(cache, readFileSync(cache, 'utf8').replace(/^CMAKE_HOME_DIRECTORY:INTERNAL=.*$/m, 'CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere'));
    const r = await reuseDependencies(checkout, worktree, files);
    expect(r.reused).toEqual([]);
    expect(r.notes).toEqual(['build/ not copied from your checkout: its CMakeCache.txt was configured for /elsewhere']);
  }, 120_000);
});
