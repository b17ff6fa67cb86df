// P20: the review's diff of a 10,000-line change (bench/diff-fixture.ts: git's diff of agent-like edits to this
// repository's TypeScript, CSS, JSON and Python, with a rename, a binary, an added and a deleted file), from navigation
// start to the frame that painted its first line, ÷ the same with a 100-line change. Goal ≤ 1.5. The page is the
// product's component (renderer/src/components/ReviewDiff.tsx with the app's styles), built with vite, minified,
// production React; unified and split are both measured and the worse ratio is the goal's.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { realisticDiff } from './diff-fixture';
import { goalLine, launchChromium, median } from './browser';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SIZES = [100, 10_000] as const;

const out = mkdtempSync(join(tmpdir(), 'ratchet-bench-p20-'));
process.env.NODE_ENV = 'production';
await build({
  configFile: join(import.meta.dirname, '..', 'renderer', 'dev', 'diff-paint', 'vite.config.ts'),
  mode: 'production',
  logLevel: 'warn',
  build: { outDir: out, emptyOutDir: true },
});
const lines: Record<number, number> = {};
for (const n of SIZES) {
  const diff = realisticDiff(n);
  lines[n] = diff.split('\n').length - 1;
  writeFileSync(join(out, `diff-${n}.txt`), diff);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.txt': 'text/plain' };
const server = createServer((req, res) => {
  const path = join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://page').pathname));
  if (!path.startsWith(out) || !existsSync(path)) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.setHeader('content-type', TYPES[extname(path)] ?? 'application/octet-stream');
  res.end(readFileSync(path));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/index.html`;

/** Milliseconds from navigation start to the frame that painted the diff's first line. */
async function firstPaint(browser: Browser, n: number, split: boolean): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(`${url}?n=${n}${split ? '&split' : ''}`);
    await page.waitForFunction(() => (globalThis as unknown as { __painted?: number }).__painted !== undefined, null, { timeout: 60_000 });
    return await page.evaluate(() => (globalThis as unknown as { __painted: number }).__painted);
  } finally {
    await page.close();
  }
}

const browser = await launchChromium();
let ok: boolean;
try {
  const results: Array<{ layout: string; small: number; big: number; ratio: number }> = [];
  for (const split of [false, true]) {
    // Warm-up: the bundle cached, as for a user who has the app open.
    await firstPaint(browser, SIZES[0], split);
    await firstPaint(browser, SIZES[1], split);
    const s: number[] = [];
    const b: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const st = await firstPaint(browser, SIZES[0], split);
      const bt = await firstPaint(browser, SIZES[1], split);
      s.push(st);
      b.push(bt);
      ratios.push(bt / st);
    }
    results.push({ layout: split ? 'split' : 'unified', small: median(s), big: median(b), ratio: median(ratios) });
  }
  const worst = results.reduce((a, r) => (r.ratio > a.ratio ? r : a));
  ok = goalLine(
    'P20',
    'diff first paint',
    worst.ratio,
    1.5,
    `${lines[SIZES[1]]} vs ${lines[SIZES[0]]} diff lines, median of ${ROUNDS}: ` +
      results.map((r) => `${r.layout} ${r.big.toFixed(0)} ms vs ${r.small.toFixed(0)} ms (ratio ${r.ratio.toFixed(2)})`).join('; '),
  );
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
