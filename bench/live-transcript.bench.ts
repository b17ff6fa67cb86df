// P10: applying one live transcript event with 3,000 entries shown ÷ with 10 shown, in Chromium with React's real rendering. Goal ≤ 1.5.
// The run screen of the dev page (the real renderer on the fake bridge): events enter through the same client, stores and
// components as in the app; each is timed from its arrival to React's committed render and the browser's layout.
import type { Page } from 'playwright-core';
import { goalLine, launchChromium, median, serveDevPage } from './browser';

const RUN = 'r-c3f0d9'; // renderer/dev/fixtures-runs.ts: RUN_IDS.running
const EVENTS = Number(process.env.BENCH_EVENTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

// page.evaluate bodies run in the page; this project's Node typecheck has no DOM, so they reach it through this shape.
type El = { dispatchEvent(e: unknown): void; textContent: string | null };
type PageGlobals = {
  __ratchetDev: Dev;
  __attemptId: number;
  requestAnimationFrame(cb: () => void): void;
  Event: new (type: string) => unknown;
  document: { body: { offsetHeight: number }; querySelector(sel: string): El | null };
};
type Dev = {
  fake: {
    engineEvent(runId: string, type: string, payload: Record<string, unknown>): unknown;
    history: Array<{ runId: string; payload: Record<string, unknown> }>;
  };
  flushSync(fn: () => void): void;
};

async function openWith(page: Page, url: string, entries: number): Promise<void> {
  await page.goto(`${url}?live=0&latency=0#/runs/${RUN}`);
  await page.getByRole('heading', { name: 'Transcript' }).waitFor();
  // The app no longer opens the resume offer by itself at start (the fixtures hold an interrupted run; the runs list says
  // so): waiting for that dialog stopped this benchmark. Should a dialog be over the screen, close it, as a user would.
  const dialog = page.getByRole('dialog');
  if (await dialog.count()) {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  await page.evaluate(
    async ([run, n]) => {
      const dev = (globalThis as unknown as PageGlobals).__ratchetDev;
      const attemptId = [...dev.fake.history].reverse().find((e) => e.runId === run && typeof e.payload.attemptId === 'number')!.payload.attemptId;
      (globalThis as unknown as PageGlobals).__attemptId = attemptId as number;
      for (let i = 0; i < n; i++) {
        const kind = i % 3 === 0 ? 'tool_use' : i % 3 === 1 ? 'tool_result' : 'text';
        dev.fake.engineEvent(
          run,
          'agent.transcript',
          kind === 'tool_use'
            ? { attemptId, kind, text: '', name: 'bash', input: { command: `grep -rn "entry ${i}" src/` } }
            : {
                attemptId,
                kind,
                text: `entry ${i}: ${'the agent explains what it found and what it will change next. '.repeat(2)}`,
                name: kind === 'tool_result' ? 'bash' : undefined,
              },
        );
      }
      const g = globalThis as unknown as PageGlobals;
      await new Promise<void>((r) => g.requestAnimationFrame(() => g.requestAnimationFrame(r)));
    },
    [RUN, entries] as const,
  );
}

/** Per event: arrival → React commit (flushSync) → layout; the median of `EVENTS`. */
async function timeEvents(page: Page): Promise<number> {
  return page.evaluate(
    async ([run, n]) => {
      const dev = (globalThis as unknown as PageGlobals).__ratchetDev;
      const attemptId = (globalThis as unknown as PageGlobals).__attemptId;
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const g = globalThis as unknown as PageGlobals;
        const t0 = performance.now();
        dev.flushSync(() => {
          dev.fake.engineEvent(run, 'agent.transcript', { attemptId, kind: 'text', text: `live entry ${i}: reading the failing test again.` });
        });
        // A list that follows its end scrolls; the browser would deliver that scroll event a frame later, and the rows it
        // brings into view are part of applying the event: deliver it now, inside the timing.
        const scroller = g.document.querySelector('.transcript-scroll') ?? g.document.querySelector('.transcript');
        // The new row, once drawn, is measured and the list scrolls again to its real end: at most a few such rounds.
        for (let k = 0; k < 3 && !scroller?.textContent?.includes(`live entry ${i}:`); k++) dev.flushSync(() => scroller?.dispatchEvent(new g.Event('scroll')));
        void g.document.body.offsetHeight;
        const ms = performance.now() - t0;
        if (!scroller?.textContent?.includes(`live entry ${i}:`)) throw new Error(`live entry ${i} is not on screen after its event`);
        times.push(ms);
        await new Promise((r) => setTimeout(r, 5));
      }
      times.sort((a, b) => a - b);
      return times[Math.floor(times.length / 2)]!;
    },
    [RUN, EVENTS] as const,
  );
}

const server = await serveDevPage();
const browser = await launchChromium();
try {
  const small: number[] = [];
  const large: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWith(page, server.url, 10);
    const s = await timeEvents(page);
    await page.close();
    const big = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWith(big, server.url, 3000);
    const b = await timeEvents(big);
    await big.close();
    small.push(s);
    large.push(b);
    ratios.push(b / s);
  }
  // BENCH_SHOTS=<dir>: the run screen with 3,000 entries and a few live ones, at both window sizes.
  if (process.env.BENCH_SHOTS) {
    for (const [w, h] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: w, height: h } });
      await openWith(page, server.url, 3000);
      await timeEvents(page);
      await page.locator('.transcript-scroll').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.BENCH_SHOTS}/p10-transcript-${w}.png` });
      await page.close();
    }
  }
  const ok = goalLine(
    'P10',
    'live transcript event, 3,000 entries shown ÷ 10 shown',
    median(ratios),
    1.5,
    `[${median(large).toFixed(2)} ms vs ${median(small).toFixed(2)} ms per event; ${ROUNDS} rounds of ${EVENTS} events; ratios ${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await browser.close();
  await server.close();
}
