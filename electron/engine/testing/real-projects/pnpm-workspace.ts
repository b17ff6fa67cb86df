// Fixture: a pnpm workspace of three packages (one depending on another through `workspace:*`), each tested by vitest,
// the whole run by `pnpm -r run test` with colour forced on; pnpm itself installed through corepack, as its users have it.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { replace, say, turn } from '../fixture-project';
import { tempDir } from '../temp-repo';
import { npmUnavailable } from './npm-library';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, run, Unavailable, type RealProject } from './real-project';

const PNPM = '9.15.9';

const ROOT_PACKAGE = `{
  "name": "kit",
  "private": true,
  "packageManager": "pnpm@${PNPM}",
  "scripts": {
    "test": "FORCE_COLOR=1 pnpm -r run test"
  }
}
`;

const pkg = (name: string, deps: string): string => `{
  "name": "@kit/${name}",
  "version": "0.3.0",
  "type": "module",
  "main": "src/index.ts",
  "scripts": {
    "test": "vitest run"
  },${deps}
  "devDependencies": {
    "vitest": "^3.2.4"
  }
}
`;

const CLAMP = `/** \`n\` brought within [lo, hi]. */
export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
`;

const CLAMP_TEST = `import { describe, expect, it } from 'vitest';
import { clamp } from '../src/index';

describe('clamp', () => {
  it('keeps a number inside the range', () => {
    expect(clamp(2, 1, 3)).toBe(2);
  });

  it('brings a number outside the range to its nearest end', () => {
    expect([clamp(0, 1, 3), clamp(9, 1, 3)]).toEqual([1, 3]);
  });
});
`;

const SELECT = `import { clamp } from '@kit/core';

/** The option at a position as the user typed it (1 is the first); a position past either end picks that end. */
export function select<T>(options: readonly T[], position: number): T | undefined {
  return options[clamp(position, 0, options.length - 1)];
}
`;

const SELECT_TEST = `import { describe, expect, it } from 'vitest';
import { select } from '../src/index';

describe('select', () => {
  it('picks by position', () => {
    expect(select(['a', 'b', 'c'], 1)).toBe('a');
  });

  it('picks the last option for a position past the end', () => {
    expect(select(['a', 'b', 'c'], 9)).toBe('c');
  });

  it('picks the first option for a position before the start', () => {
    expect(select(['a', 'b', 'c'], -2)).toBe('a');
  });
});
`;

const LIST = `/** Items joined as a sentence: "a, b and c". */
export function list(items: readonly string[]): string {
  if (items.length < 2) return items.join('');
  return \`\${items.slice(0, -1).join(', ')} and \${items[items.length - 1]}\`;
}
`;

const LIST_TEST = `import { describe, expect, it } from 'vitest';
import { list } from '../src/index';

describe('list', () => {
  it('joins items as a sentence', () => {
    expect(list(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
`;

const README = `# kit

Small parts for command-line tools: \`@kit/core\`, \`@kit/prompts\`, \`@kit/format\`.

## Development

    corepack enable
    pnpm install
    pnpm test
`;

/**
 * The developer's shell with pnpm through corepack: its cache in a home of the fixture's own (COREPACK_HOME, as a user
 * who set it has it), so nothing is written to this machine's home. Throws Unavailable without corepack or the registry.
 */
function pnpmShell(): NodeJS.ProcessEnv {
  const why = npmUnavailable();
  if (why) throw new Unavailable(why);
  if (!has('corepack', '--version')) throw new Unavailable('corepack is not installed');
  const home = tempDir('ratchet-real-corepack-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  const env = developerEnv({ COREPACK_HOME: join(home, 'corepack'), COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', PATH: `${bin}:${process.env.PATH}` });
  spawnSync('corepack', ['enable', '--install-directory', bin, 'pnpm'], { env, encoding: 'utf8' });
  const fetch = () => spawnSync('corepack', ['install', '-g', `pnpm@${PNPM}`], { cwd: home, env, encoding: 'utf8', timeout: 120_000 });
  let r = fetch();
  // The registry this machine reaches may serve metadata without npm's signatures: checked as corepack's own option allows.
  if (r.status !== 0 && /signature/i.test(`${r.stdout}${r.stderr}`)) {
    env.COREPACK_INTEGRITY_KEYS = '0';
    r = fetch();
  }
  if (r.status !== 0)
    throw new Unavailable(`pnpm could not be installed through corepack: ${`${r.stdout}${r.stderr}${r.error?.message ?? ''}`.trim().split('\n').pop()}`);
  return env;
}

/** The workspace as its developer has it after `pnpm install`: node_modules in the root and each package (gitignored), the lockfile committed. */
export function makePnpmWorkspace(): RealProject {
  const shellEnv = pnpmShell();
  const repo = gitProject('pnpm', {
    'package.json': ROOT_PACKAGE,
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'README.md': README,
    '.gitignore': 'node_modules/\n',
    'packages/core/package.json': pkg('core', ''),
    'packages/core/src/index.ts': CLAMP,
    'packages/core/test/clamp.test.ts': CLAMP_TEST,
    'packages/prompts/package.json': pkg('prompts', '\n  "dependencies": {\n    "@kit/core": "workspace:*"\n  },'),
    'packages/prompts/src/index.ts': SELECT,
    'packages/prompts/test/select.test.ts': SELECT_TEST,
    'packages/format/package.json': pkg('format', ''),
    'packages/format/src/index.ts': LIST,
    'packages/format/test/list.test.ts': LIST_TEST,
  });
  // Only the registry's metadata the store lacks is fetched; the lockfile is pnpm's own.
  run(repo, 'pnpm', ['install', '--prefer-offline', '--reporter=silent'], { env: shellEnv, timeoutMs: 600_000 });
  commitAll(repo, 'kit 0.3.0');
  const failingTest = 'picks by position';
  confirmBug(repo, 'pnpm test', shellEnv, failingTest);
  return {
    ecosystem: 'npm',
    repo,
    testCommand: 'pnpm test',
    shellEnv,
    step: {
      title: 'select picks the option at the position typed',
      prompt:
        "select(['a', 'b', 'c'], 1) gives 'b', but positions are typed from 1. Fix select() in packages/prompts/src/index.ts; its tests are in packages/prompts/test/select.test.ts.",
    },
    failingTest,
    attempts: [
      [
        bash('cat packages/prompts/src/index.ts'),
        // Wrong: the position is made 0-based but the range is not, so a position past the end picks nothing.
        turn(replace('packages/prompts/src/index.ts', 'options[clamp(position, 0, options.length - 1)]', 'options[clamp(position - 1, 0, options.length)]')),
        say('select() now reads positions from 1.'),
      ],
      [
        turn(replace('packages/prompts/src/index.ts', 'options[clamp(position - 1, 0, options.length)]', 'options[clamp(position, 1, options.length) - 1]')),
        say('select() clamps the typed position to 1..length, then reads the option at it.'),
      ],
    ],
    attempt1FailingTest: 'picks the last option for a position past the end',
    fixFiles: ['packages/prompts/src/index.ts'],
    untrackedDirs: ['node_modules', 'packages/core/node_modules', 'packages/prompts/node_modules', 'packages/format/node_modules'],
  };
}
