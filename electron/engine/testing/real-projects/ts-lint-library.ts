// Fixture: a TypeScript library whose `npm test` formats and lints the whole tree before its tests (prettier, eslint, vitest from npm), with a real bug.
import { replace, say, turn } from '../fixture-project';
import { npmUnavailable } from './npm-library';
import { bash, commitAll, confirmBug, developerEnv, gitProject, run, Unavailable, type RealProject } from './real-project';

const PACKAGE_JSON = `{
  "name": "slug-kit",
  "version": "0.4.0",
  "description": "URL slugs and title case for ASCII text.",
  "type": "module",
  "main": "src/index.ts",
  "scripts": {
    "format": "prettier --write .",
    "test": "prettier --check . && eslint . && vitest run"
  },
  "devDependencies": {
    "@eslint/js": "^10.0.1",
    "eslint": "^10.15.0",
    "prettier": "^3.10.1",
    "typescript": "^5.9.3",
    "typescript-eslint": "^8.73.0",
    "vitest": "^3.2.4"
  },
  "license": "MIT"
}
`;

const ESLINT_CONFIG = `import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
);
`;

const WORDS = `/** The words of \`text\`: runs of ASCII letters and digits, in order. */
export function words(text: string): string[] {
  return text.match(/[A-Za-z0-9]+/g) ?? [];
}
`;

const SLUG = `import { words } from "./words";

/** A URL slug: the words of \`text\` in lower case joined by "-", at most \`max\` characters, never ending in "-". */
export function slugify(text: string, max = 60): string {
  const slug = words(text).join("-").toLowerCase();
  return slug.slice(0, max);
}
`;

const TITLE = `import { words } from "./words";

const SMALL = new Set(["a", "an", "and", "of", "the", "to"]);

/** Title case: each word capitalised, small words lower case unless first. */
export function titleCase(text: string): string {
  return words(text)
    .map((w, i) => {
      const lower = w.toLowerCase();
      if (i > 0 && SMALL.has(lower)) return lower;
      return lower[0]!.toUpperCase() + lower.slice(1);
    })
    .join(" ");
}
`;

const INDEX = `export { slugify } from "./slug";
export { titleCase } from "./title";
export { words } from "./words";
`;

const SLUG_TEST = `import { describe, expect, it } from "vitest";
import { slugify } from "../src/slug";

describe("slugify", () => {
  it("joins the words in lower case", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
  });

  it("never ends a cut slug with a dash", () => {
    expect(slugify("alpha beta gamma", 6)).toBe("alpha");
  });

  it("keeps the whole last word when it fits exactly", () => {
    expect(slugify("alpha beta", 10)).toBe("alpha-beta");
  });
});
`;

const TITLE_TEST = `import { describe, expect, it } from "vitest";
import { titleCase } from "../src/title";

describe("titleCase", () => {
  it("capitalises words and keeps small ones low", () => {
    expect(titleCase("the lord of the rings")).toBe("The Lord of the Rings");
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

const README = `# slug-kit

URL slugs and title case for ASCII text.

## Development

    npm install
    npm test   # prettier --check . && eslint . && vitest run
`;

/**
 * The library as its developer has it after `npm install`: node_modules in the checkout (gitignored), the lockfile
 * committed, every file formatted as prettier wants it. Its test meets every file of the tree: a file the sandbox
 * made there would fail prettier (or eslint) though the checkout passes.
 */
export function makeTsLintLibrary(): RealProject {
  const why = npmUnavailable();
  if (why) throw new Unavailable(why);
  const repo = gitProject('npm-lint', {
    'package.json': PACKAGE_JSON,
    'tsconfig.json': TSCONFIG,
    'eslint.config.js': ESLINT_CONFIG,
    'README.md': README,
    '.gitignore': 'node_modules/\ncoverage/\n',
    '.prettierignore': 'package-lock.json\n',
    'src/index.ts': INDEX,
    'src/words.ts': WORDS,
    'src/slug.ts': SLUG,
    'src/title.ts': TITLE,
    'test/slug.test.ts': SLUG_TEST,
    'test/title.test.ts': TITLE_TEST,
  });
  run(repo, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { timeoutMs: 600_000 });
  commitAll(repo, 'slug-kit 0.4.0');
  const shellEnv = developerEnv();
  const failingTest = 'never ends a cut slug with a dash';
  // Formatted and lint-clean: only the test fails, in the checkout.
  const out = confirmBug(repo, 'npm test', shellEnv, failingTest);
  if (!/All matched files use Prettier code style/.test(out)) throw new Error(`prettier --check did not pass in ${repo}:\n${out.slice(-3000)}`);
  return {
    ecosystem: 'npm',
    repo,
    testCommand: 'npm test',
    shellEnv,
    step: {
      title: 'Never end a cut slug with a dash',
      prompt:
        "slugify('alpha beta gamma', 6) returns 'alpha-' although a slug never ends with '-'. Fix slugify() in src/slug.ts; the tests are in test/slug.test.ts.",
    },
    failingTest,
    attempts: [
      [
        bash('cat src/slug.ts'),
        // Wrong: cuts one character short of the limit, which drops the last letter of a word that fits exactly.
        turn(replace('src/slug.ts', 'return slug.slice(0, max);', 'return slug.slice(0, max - 1);')),
        say('slugify() now cuts before the limit.'),
      ],
      [
        turn(replace('src/slug.ts', 'return slug.slice(0, max - 1);', 'return slug.slice(0, max).replace(/-+$/, "");')),
        say('slugify() cuts at the limit and drops a trailing dash.'),
      ],
    ],
    attempt1FailingTest: 'keeps the whole last word when it fits exactly',
    fixFiles: ['src/slug.ts'],
    untrackedDirs: ['node_modules'],
  };
}
