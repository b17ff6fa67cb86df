// Monorepo runners' prefixes and headers: each package's lines are read on their own, and a location printed relative
// to the package is rewritten from the repository root (recorded pnpm output is in the failure corpus, monorepo/).
import { describe, expect, it } from 'vitest';
import { fromRepositoryRoot, linePrefix, splitWorkspaceOutput, WORKSPACE_PREFIX } from './workspace-prefix';

describe('workspace prefixes', () => {
  it('takes pnpm -r output apart by the folders it announced, each package in its own order', () => {
    const parts = splitWorkspaceOutput(
      [
        'Scope: 2 of 3 workspace projects',
        'packages/a test$ vitest run',
        'packages/b test$ vitest run',
        'packages/a test:  FAIL  x.test.ts > one',
        'packages/b test:  ✓ y.test.ts',
        'packages/a test: AssertionError: expected 1 to be 2',
      ].join('\n'),
    );
    const a = parts.find((p) => p.pkg === 'packages/a')!;
    expect(a.dir).toBe('packages/a');
    expect(a.text).toBe(' FAIL  x.test.ts > one\nAssertionError: expected 1 to be 2');
    expect(parts.find((p) => p.pkg === 'packages/b')!.text).toBe(' ✓ y.test.ts');
  });

  it('reads yarn foreach and turbo prefixes, and maps their package names to folders when told', () => {
    const folders = new Map([['@m/web', 'apps/web']]);
    const yarn = splitWorkspaceOutput('➤ YN0000: [@m/web]:  FAIL  a.test.ts\n[@m/web]: Expected: 1', folders);
    expect(yarn).toEqual([{ pkg: '@m/web', dir: 'apps/web', text: ' FAIL  a.test.ts\nExpected: 1' }]);
    const turbo = splitWorkspaceOutput('@m/web:test: cache miss, executing 0af1\n@m/web:test:  FAIL  a.test.ts', folders);
    expect(turbo.find((p) => p.pkg === '@m/web')).toEqual({ pkg: '@m/web', dir: 'apps/web', text: 'cache miss, executing 0af1\n FAIL  a.test.ts' });
    expect(splitWorkspaceOutput('[web]: only once').map((p) => p.pkg)).toEqual([null]);
  });

  it('sections npm workspaces and nx output by their headers', () => {
    const npm = splitWorkspaceOutput('\n> @m/a@1.0.0 test\n> vitest run\nA\n\n> @m/b@1.0.0 test\n> vitest run\nB', new Map([['@m/b', 'packages/b']]));
    expect(npm.map((p) => [p.pkg, p.dir])).toEqual([
      [null, null],
      ['@m/a', null],
      ['@m/b', 'packages/b'],
    ]);
    expect(npm[2]!.text).toBe('> @m/b@1.0.0 test\n> vitest run\nB');
    expect(splitWorkspaceOutput('> nx run web:test\nW\n> nx run api:test\nX').map((p) => p.pkg)).toEqual(['web', 'api']);
  });

  it('leaves an ordinary output whole, even with lines that look like a prefix', () => {
    const text = 'Caused by: Error: boom\nCaused by: Error: boom again\nsrc/a.ts(3,1): error TS2322: x';
    expect(splitWorkspaceOutput(text)).toEqual([{ pkg: null, dir: null, text }]);
  });

  it('tells a single line its prefix (for the gate log) and rewrites locations from the root', () => {
    expect(linePrefix('packages/prompts test:  FAIL  t.ts')).toEqual({ pkg: 'packages/prompts', rest: ' FAIL  t.ts' });
    expect(linePrefix('web:test: x')).toEqual({ pkg: 'web', rest: 'x' });
    expect(linePrefix('  at foo (a.js:1:1)')).toBeNull();
    expect(WORKSPACE_PREFIX.test('➤ YN0000: [web]: x')).toBe(true);
    expect(fromRepositoryRoot('packages/p', 'test/s.test.ts')).toBe('packages/p/test/s.test.ts');
    expect(fromRepositoryRoot('packages/p', './test/s.test.ts')).toBe('packages/p/test/s.test.ts');
    expect(fromRepositoryRoot('packages/p', 'packages/p/test/s.test.ts')).toBe('packages/p/test/s.test.ts');
    expect(fromRepositoryRoot('packages/p', '/abs/s.test.ts')).toBe('/abs/s.test.ts');
    expect(fromRepositoryRoot(null, 'test/s.test.ts')).toBe('test/s.test.ts');
  });
});
