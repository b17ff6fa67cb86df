// Renders resources/icon.svg to resources/icon.png (1024×1024, transparent corners) with the Chromium Playwright drives: node scripts/make-icon.mjs.
// electron-builder makes every size and format the targets need (icns, ico, Linux icon set) from that one PNG.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const svg = readFileSync(fileURLToPath(new URL('../resources/icon.svg', import.meta.url)), 'utf8');
const out = fileURLToPath(new URL('../resources/icon.png', import.meta.url));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 1024 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}</style>${svg}`);
  await page.locator('svg').screenshot({ path: out, omitBackground: true });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
}
