// Takes a screenshot of every screen of the dev page (fake bridge) in light and dark: node renderer/dev/screenshots.mjs [baseUrl].
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:4178/';
const out = new URL('./screenshots/', import.meta.url).pathname;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const problems = [];

for (const theme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: theme, viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${theme}: page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`${theme}: console: ${m.text()}`));
  const shot = async (name) => {
    // A pointer left over a chart from the last click would leave a tooltip in the picture.
    await page.mouse.move(1350, 890);
    await page.screenshot({ path: `${out}${name}-${theme}.png` });
  };
  const go = async (hash) => {
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await page.waitForTimeout(500);
  };

  await page.goto(base);
  await page.getByRole('dialog', { name: 'Resume plan' }).waitFor();
  await page.getByText('Resume plan', { exact: false }).first().waitFor();
  await page.waitForSelector('.resume');
  await shot('resume-dialog');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.runs-table');
  await shot('home');

  await go('#/new?repo=/home/dev/code/space-game');
  await page.getByRole('tab', { name: /workflow/ }).click();
  await page.getByText(/^Loaded/).waitFor();
  await shot('new-task-workflow');
  await page.getByLabel('Title', { exact: true }).fill('Versioned, atomic saves');
  await page.getByRole('tab', { name: /Drafted/ }).click();
  await page.getByRole('button', { name: 'Draft a plan' }).click();
  await page.waitForSelector('.plan-step');
  await shot('new-task-draft');

  await go('#/runs/r-7f3a21?step=2');
  await page.getByRole('tab', { name: /Attempt 1/ }).click();
  await page.waitForSelector('.failing-tests');
  await shot('run-attempt-failed');
  await page.getByRole('tab', { name: /Attempt 2/ }).click();
  await page.waitForTimeout(400);
  await shot('run-attempt-passed');

  await go('#/runs/r-b91c07');
  await page.waitForSelector('.decision');
  await shot('run-waiting');

  await go('#/runs/r-c3f0d9');
  await page.waitForTimeout(3000);
  await shot('run-live');

  await go('#/runs/r-e0a5f1?step=1');
  await page.getByRole('tab', { name: /Attempt 1/ }).click();
  const t0 = Date.now();
  await page.waitForSelector('.terminal .vline', { timeout: 30_000 });
  const loadMs = Date.now() - t0;
  const scroll = await page.evaluate(async () => {
    const el = document.querySelector('.terminal');
    const start = performance.now();
    for (let i = 1; i <= 20; i++) {
      el.scrollTop = (el.scrollHeight * i) / 20;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
    return { ms: performance.now() - start, rows: el.querySelectorAll('.vline').length };
  });
  console.log(
    `${theme}: 20 MB output shown in ${loadMs} ms (fake bridge included); 20 jumps across it in ${Math.round(scroll.ms)} ms with ${scroll.rows} rows in the DOM`,
  );
  await shot('run-big-output');

  await go('#/dashboard');
  await page.waitForSelector('.kpis');
  await page.waitForTimeout(400);
  await shot('dashboard');
  await page.getByRole('button', { name: /Weekly report/ }).click();
  await page.waitForSelector('.report-doc');
  await shot('report');
  await page.keyboard.press('Escape');

  await go('#/settings');
  await page.waitForSelector('.pricing');
  await shot('settings');
  await context.close();
}

await browser.close();
if (problems.length) console.log(problems.join('\n'));
console.log('screenshots in', out);
