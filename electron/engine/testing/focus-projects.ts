// Test helper: small projects for vitest, go test and python unittest with a slow passing suite and one failing test,
// for the faster-retries tests and benchmark (a retry's gate runs the failing test first).
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp-repo';

export interface FocusProject {
  dir: string;
  /** The gate's command: the runner invoked plainly. */
  run: string;
  /** Makes the failing test pass. */
  fix(): void;
}

/** How many slow passing tests, and how long each takes. */
export interface SlowSuite {
  tests: number;
  ms: number;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

const ROOT = path.join(import.meta.dirname, '../../..');

/** vitest from Ratchet's own node_modules; the slow tests in two files. */
export function vitestProject(slow: SlowSuite): FocusProject {
  const dir = tempDir('ratchet-focus-vitest-');
  const half = Math.ceil(slow.tests / 2);
  const file = (i: number, n: number) =>
    `import { test, expect } from 'vitest';\n${Array.from({ length: n }, (_, k) => `test('slow ${i}.${k}', async () => { await new Promise((r) => setTimeout(r, ${slow.ms})); expect(${k}).toBe(${k}); });`).join('\n')}\n`;
  write(dir, {
    'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
    'src/add.js': 'export const add = (a, b) => a - b;\n',
    'test/add.test.js':
      "import { test, expect } from 'vitest';\nimport { add } from '../src/add.js';\ntest('adds', () => { expect(add(2, 3)).toBe(5); });\ntest('adds zero', () => { expect(add(2, 0)).toBe(2); });\n",
    'test/slow-a.test.js': file(1, half),
    'test/slow-b.test.js': file(2, slow.tests - half),
  });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, run: 'CI=1 npx vitest run', fix: () => write(dir, { 'src/add.js': 'export const add = (a, b) => a + b;\n' }) };
}

export function goProject(slow: SlowSuite): FocusProject {
  const dir = tempDir('ratchet-focus-go-');
  const slowTests = Array.from({ length: slow.tests }, (_, k) => `\nfunc TestSlow${k}(t *testing.T) { time.Sleep(${slow.ms} * time.Millisecond) }\n`).join('');
  write(dir, {
    'go.mod': 'module example.com/calc\n\ngo 1.19\n',
    'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a - b }\n',
    'calc_test.go': `package calc\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Errorf("Add(2, 3) = %d; want 5", got)\n\t}\n}\n${slowTests}`,
  });
  return { dir, run: 'go test -v ./...', fix: () => write(dir, { 'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n' }) };
}

export function unittestProject(slow: SlowSuite): FocusProject {
  const dir = tempDir('ratchet-focus-unittest-');
  const slowTests = Array.from({ length: slow.tests }, (_, k) => `    def test_slow_${k}(self):\n        time.sleep(${slow.ms / 1000})\n`).join('\n');
  write(dir, {
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/__init__.py': '',
    'tests/test_calc.py': `import time\nimport unittest\n\nfrom calc import add\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n\nclass SlowTest(unittest.TestCase):\n${slowTests}`,
  });
  return { dir, run: 'python3 -m unittest -v', fix: () => write(dir, { 'calc.py': 'def add(a, b):\n    return a + b\n' }) };
}
