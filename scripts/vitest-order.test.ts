// The suite's file order (vitest.config.ts): on a clean clone (no results cache, as on CI) the files that take minutes
// start first, and every LONG_FIRST entry still names test files.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONG_FIRST, LongFirstSequencer } from '../vitest.config';

const ROOT = join(import.meta.dirname, '..');

/** Vitest's view of a test file in a run without a results cache (a clean clone). */
function spec(file: string): TestSpecification {
  return {
    moduleId: join(ROOT, file),
    project: { name: '', config: { root: ROOT, isolate: true, sequence: { groupOrder: 0 } } },
  } as unknown as TestSpecification;
}

const noCache = { cache: { getTestSpecificationResult: () => undefined }, config: { root: ROOT } } as unknown as ConstructorParameters<typeof BaseSequencer>[0];

describe('the order of the suite’s files (vitest.config.ts)', () => {
  it('a clean clone starts the long files first: the real projects (20 lines each, minutes each) no longer last by size', async () => {
    const files = [
      'electron/engine/engine.test.ts',
      'electron/cli/real-projects/go-module.test.ts',
      'electron/cli/real-projects/python-package.test.ts',
      'shared/money.test.ts',
    ];
    const order = async (s: BaseSequencer) => (await s.sort(files.map(spec))).map((x) => x.moduleId.slice(ROOT.length + 1));
    // Vitest's own order without a cache: larger files first, so a long file of a few lines starts after every larger one.
    expect((await order(new BaseSequencer(noCache)))[0]).toBe('electron/engine/engine.test.ts');
    expect(await order(new LongFirstSequencer(noCache))).toEqual([
      'electron/cli/real-projects/python-package.test.ts',
      'electron/cli/real-projects/go-module.test.ts',
      'electron/engine/engine.test.ts',
      'shared/money.test.ts',
    ]);
  });

  it('every LONG_FIRST entry names a test file or a folder of them (a stale entry is removed, not kept)', () => {
    for (const entry of LONG_FIRST) {
      if (entry.endsWith('/'))
        expect(
          readdirSync(join(ROOT, entry)).some((f) => f.endsWith('.test.ts')),
          entry,
        ).toBe(true);
      else expect(existsSync(join(ROOT, entry)) && entry.endsWith('.test.ts'), entry).toBe(true);
    }
  });
});
