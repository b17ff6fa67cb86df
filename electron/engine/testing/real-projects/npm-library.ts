// Fixture: a TypeScript library on npm (a runtime dependency and vitest installed by `npm install`), with a real wrapping bug.
import { spawnSync } from 'node:child_process';
import { replace, say, turn } from '../fixture-project';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, run, Unavailable, type RealProject } from './real-project';

const PACKAGE_JSON = `{
  "name": "wrap-columns",
  "version": "1.2.0",
  "description": "Wrap text to a column width, measuring wide characters as a terminal shows them.",
  "type": "module",
  "main": "src/wrap.ts",
  "scripts": {
    "test": "vitest run"
  },
  "dependencies": {
    "string-width": "^7.2.0"
  },
  "devDependencies": {
    "vitest": "^3.2.4"
  },
  "license": "MIT"
}
`;

const WRAP = `import stringWidth from 'string-width';

/** Splits \`text\` into lines no wider than \`width\` terminal columns, breaking between words. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\\s+/).filter(Boolean)) {
    const candidate = line === '' ? word : \`\${line} \${word}\`;
    if (stringWidth(candidate) < width) {
      line = candidate;
    } else {
      if (line !== '') lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
`;

const WRAP_TEST = `import { describe, expect, it } from 'vitest';
import { wrap } from '../src/wrap';

describe('wrap', () => {
  it('breaks between words', () => {
    expect(wrap('the quick brown fox', 10)).toEqual(['the quick', 'brown fox']);
  });

  it('keeps a line that fills the width exactly', () => {
    expect(wrap('ab cd ef', 5)).toEqual(['ab cd', 'ef']);
  });

  it('measures wide characters by the columns they take', () => {
    expect(wrap('日本 語', 4)).toEqual(['日本', '語']);
  });

  it('puts a word longer than the width on its own line', () => {
    expect(wrap('a verylongword b', 4)).toEqual(['a', 'verylongword', 'b']);
  });
});
`;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "noEmit": true
  },
  "include": ["src", "test"]
}
`;

const README = `# wrap-columns

Wrap text to a column width, measuring wide characters (CJK, emoji) by the columns a terminal gives them.

## Development

    npm install
    npm test
`;

/** Why this machine cannot build the npm fixture (no npm, or its registry unreachable), else null. */
export function npmUnavailable(): string | null {
  if (!has('npm')) return 'npm is not installed';
  const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 60_000 });
  if (ping.error || ping.status !== 0)
    return `npm's registry is not reachable from here (npm ping: ${`${ping.stderr ?? ''}`.trim().split('\n').pop() ?? ping.error?.message})`;
  return null;
}

/** The library as its developer has it after `npm install`: node_modules in the checkout (gitignored), the lockfile committed. */
export function makeNpmLibrary(): RealProject {
  const why = npmUnavailable();
  if (why) throw new Unavailable(why);
  const repo = gitProject('npm', {
    'package.json': PACKAGE_JSON,
    'tsconfig.json': TSCONFIG,
    'README.md': README,
    '.gitignore': 'node_modules/\ncoverage/\n',
    'src/wrap.ts': WRAP,
    'test/wrap.test.ts': WRAP_TEST,
  });
  // Only the registry's metadata the cache lacks is fetched; the lockfile is npm's own.
  run(repo, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { timeoutMs: 600_000 });
  commitAll(repo, 'wrap-columns 1.2.0');
  const shellEnv = developerEnv();
  const failingTest = 'keeps a line that fills the width exactly';
  confirmBug(repo, 'npm test', shellEnv, failingTest);
  return {
    ecosystem: 'npm',
    repo,
    testCommand: 'npm test',
    shellEnv,
    step: {
      title: 'Keep a line that fills the width exactly',
      prompt: "wrap('ab cd ef', 5) breaks 'ab cd' in two although it is exactly 5 columns wide. Fix wrap() in src/wrap.ts; the tests are in test/wrap.test.ts.",
    },
    failingTest,
    attempts: [
      [
        bash('cat src/wrap.ts'),
        // Wrong: counts UTF-16 code units instead of columns, so wide characters overflow.
        turn(replace('src/wrap.ts', 'if (stringWidth(candidate) < width) {', 'if (candidate.length <= width) {')),
        say('wrap() now keeps a line whose length equals the width.'),
      ],
      [
        turn(replace('src/wrap.ts', 'if (candidate.length <= width) {', 'if (stringWidth(candidate) <= width) {')),
        say('wrap() measures columns with string-width again and keeps a line that fills the width exactly.'),
      ],
    ],
    attempt1FailingTest: 'measures wide characters by the columns they take',
    fixFiles: ['src/wrap.ts'],
    untrackedDirs: ['node_modules'],
  };
}
