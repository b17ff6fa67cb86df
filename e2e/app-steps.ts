// What the layout and queue specs do in the app: start a task from a repository's workflow, check a screen's layout, shoot it at both sizes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { demoRepo, editWorkflow, ROOT, shot } from './harness';

/** The two window sizes every screen is looked at in: a roomy one and the window's minimum. */
export const SIZES = [
  { width: 1400, height: 900 },
  { width: 1024, height: 700 },
] as const;

/** A copy of the demo repository whose ratchet.yml is the demo's second task (step 2 fails for good: max_retries 1). */
export function failingDemoRepo(): string {
  return editWorkflow(demoRepo(), () => readFileSync(join(ROOT, 'resources', 'demo-second.yml'), 'utf8'), 'the division task');
}

/** What startTask does on the way, besides filling the form: `afterLoad` once the workflow file is loaded (before Trust), `beforeStart` just before Start run. */
export interface StartTaskHooks {
  afterLoad?: () => Promise<void>;
  beforeStart?: () => Promise<void>;
}

/** New task from Home: the repository's path, a title, its own workflow file (trusted once), Start run; ends on the run screen. */
export async function startTask(page: Page, repo: string, title: string, hooks: StartTaskHooks = {}): Promise<void> {
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByLabel('repository path').fill(repo);
  await page.getByRole('button', { name: 'Use this path' }).click();
  await page.getByRole('heading', { name: 'New task' }).waitFor();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('tab', { name: /From the repo/ }).click();
  await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
  await hooks.afterLoad?.();
  const trust = page.getByRole('button', { name: 'Trust', exact: true });
  if (await trust.isVisible()) {
    await trust.click();
    await page.getByText('You trust this workflow file').waitFor();
  }
  await hooks.beforeStart?.();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.getByRole('heading', { name: title }).waitFor();
}

/** The little of the page's DOM the probe below reads (the e2e specs are compiled without the DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}
interface PageElement {
  tagName: string;
  contains(other: PageElement): boolean;
  className: unknown;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  children: Iterable<PageElement> & ArrayLike<PageElement>;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  /** HTML elements only (undefined on SVG's): the layout box, without CSS transforms. */
  offsetLeft?: number;
  offsetTop?: number;
  offsetWidth?: number;
  offsetHeight?: number;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
}
interface PageWindow {
  innerWidth: number;
  document: {
    scrollingElement: PageElement | null;
    documentElement: PageElement;
    getElementById(id: string): PageElement | null;
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
    createRange(): { selectNodeContents(node: PageElement): void; getBoundingClientRect(): Box };
  };
  getComputedStyle(el: PageElement): { paddingLeft: string; paddingRight: string };
  requestAnimationFrame(callback: () => void): number;
}

/**
 * What is wrong with the layout on screen now, as sentences (none: fine): the page or the main pane scrolls
 * sideways, an open dialog is wider than the window, and on the runs list a header cell overlaps the next one,
 * its label does not fit, or the task column is too narrow to read a title.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const window = globalThis as unknown as PageWindow;
    const { document } = window;
    const problems: string[] = [];
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > window.innerWidth) problems.push(`the page is ${doc.scrollWidth} px wide in a ${window.innerWidth} px window`);
    const main = document.getElementById('main');
    if (main && main.scrollWidth > main.clientWidth + 1) {
      // Name the culprits: the innermost elements that stick out on the right.
      const edge = main.getBoundingClientRect().left + main.clientWidth + 1;
      const out = [...main.querySelectorAll('*')].filter(
        (el) => el.getBoundingClientRect().right > edge && ![...el.children].some((c) => c.getBoundingClientRect().right > edge),
      );
      const names = out
        .slice(0, 3)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} (to ${Math.round(el.getBoundingClientRect().right)} px)`,
        );
      problems.push(
        `the main pane scrolls sideways: ${main.scrollWidth} px of content in ${main.clientWidth} px; sticking out: ${names.join(', ') || 'nothing visible'}`,
      );
    }
    for (const modal of document.querySelectorAll('[role="dialog"]')) {
      const r = modal.getBoundingClientRect();
      if (r.left < 0 || r.right > window.innerWidth + 1)
        problems.push(
          `the dialog "${modal.getAttribute('aria-label')}" spans ${Math.round(r.left)}–${Math.round(r.right)} px in a ${window.innerWidth} px window`,
        );
      for (const part of modal.querySelectorAll('.modal-body, .modal-footer, .modal-header')) {
        if (part.scrollWidth > part.clientWidth + 1)
          problems.push(
            `the dialog "${modal.getAttribute('aria-label')}" scrolls sideways (${part.className}: ${part.scrollWidth} px in ${part.clientWidth} px)`,
          );
      }
    }
    // Chart axes: no tick label runs into the next one (recharts draws them as SVG text).
    for (const axis of document.querySelectorAll('.recharts-cartesian-axis-tick-labels')) {
      const ticks = [...axis.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((t) => ({
        text: (t.textContent ?? '').trim(),
        box: t.getBoundingClientRect(),
      }));
      for (let i = 0; i < ticks.length; i++) {
        for (let j = i + 1; j < ticks.length; j++) {
          const [a, b] = [ticks[i]!, ticks[j]!];
          const cross = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const rows = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (cross > 1 && rows > 1) problems.push(`the chart axis labels "${a.text}" and "${b.text}" overlap`);
        }
      }
    }
    // Nothing lies over a control: a notice never covers a button of the screen.
    const overlap = (a: Box, b: Box) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    for (const notice of document.querySelectorAll('.notices .notice')) {
      const n = notice.getBoundingClientRect();
      for (const button of document.querySelectorAll('main button, main a, main input')) {
        if (notice.contains(button)) continue;
        const b = button.getBoundingClientRect();
        if (b.width > 0 && overlap(n, b)) problems.push(`a notice covers "${(button.textContent ?? '').trim() || button.tagName.toLowerCase()}"`);
      }
    }
    // The retry breakdown's table sits under its bars: each column's centre within a few pixels of its bar's.
    const breakdown = document.querySelector('.breakdown-table');
    const card = document.querySelector('section[aria-labelledby="h-breakdown"]');
    if (breakdown && card) {
      const ticks = [...card.querySelectorAll('.recharts-xAxis .recharts-cartesian-axis-tick-value')].map((t) => t.getBoundingClientRect());
      const heads = [...breakdown.querySelectorAll('thead th[scope="col"]')].map((t) => t.getBoundingClientRect());
      heads.forEach((h, i) => {
        const t = ticks[i];
        if (!t) return;
        const off = Math.abs((h.left + h.right) / 2 - (t.left + t.right) / 2);
        if (off > 6) problems.push(`the retry breakdown's column ${i + 1} is ${Math.round(off)} px off its bar`);
      });
    }
    const table = document.querySelector('table.runs-table');
    if (table) {
      const heads = [...table.querySelectorAll('thead th')];
      heads.forEach((th, i) => {
        const r = th.getBoundingClientRect();
        const label = (th.textContent ?? '').trim();
        const style = window.getComputedStyle(th);
        const room = r.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const range = document.createRange();
        range.selectNodeContents(th);
        const text = range.getBoundingClientRect().width;
        if (r.width < 1) problems.push(`the runs list's "${label}" column is ${r.width} px wide`);
        else if (text > room + 0.5) problems.push(`the runs list's "${label}" header needs ${Math.ceil(text)} px but has ${Math.floor(room)} px`);
        const next = heads[i + 1];
        if (next && r.right > next.getBoundingClientRect().left + 0.5)
          problems.push(`the runs list's "${label}" header overlaps "${(next.textContent ?? '').trim()}"`);
        if (r.right > table.getBoundingClientRect().right + 0.5) problems.push(`the runs list's "${label}" header sticks out of the table`);
      });
      const task = heads.find((th) => (th.textContent ?? '').trim().toLowerCase() === 'task');
      const width = task?.getBoundingClientRect().width ?? 0;
      if (width < 160) problems.push(`the runs list's task column is ${Math.round(width)} px wide (a title needs at least 160 px)`);
    }
    return problems;
  });
}

/**
 * Resolves once the page's layout has settled: every element's box (offsets, which a CSS spinner's transform leaves alone)
 * and the charts' drawn shapes (their SVG attributes) the same over three animation frames in a row. After a resize the
 * charts measure themselves in a ResizeObserver and animate in; a fixed pause before a screenshot was too short on a
 * loaded machine and wasted on a quiet one.
 */
export async function settled(page: Page, ms = 10_000): Promise<void> {
  const still = await page.evaluate(
    (limit) =>
      new Promise<boolean>((resolve) => {
        const w = globalThis as unknown as PageWindow;
        const drawn = ['d', 'x', 'y', 'width', 'height', 'transform', 'points'];
        const shape = () =>
          [...w.document.documentElement.querySelectorAll('*')]
            .map((el) =>
              el.offsetWidth === undefined
                ? drawn.map((a) => el.getAttribute(a)).join(',')
                : `${el.offsetLeft},${el.offsetTop},${el.offsetWidth},${el.offsetHeight}`,
            )
            .join(';');
        const start = Date.now();
        let last = '';
        let same = 0;
        const frame = () => {
          const now = shape();
          same = now === last ? same + 1 : 0;
          last = now;
          if (same >= 3) return resolve(true);
          if (Date.now() - start > limit) return resolve(false);
          w.requestAnimationFrame(frame);
        };
        w.requestAnimationFrame(frame);
      }),
    ms,
  );
  expect(still, `the layout still moved after ${ms} ms`).toBe(true);
}

/** Looks at the screen at both sizes: checks its layout at each and saves e2e/screenshots/screen-<name>-<1400|1024>.png. */
export async function shootScreen(page: Page, name: string, prepare?: () => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await prepare?.();
    // One frame for layout after the resize (charts measure themselves in a ResizeObserver).
    await settled(page);
    await shot(page, `screen-${name}-${size.width}`);
    // Soft: one sweep reports every screen that is wrong, not only the first.
    expect.soft(await layoutProblems(page), `${name} at ${size.width}×${size.height}`).toEqual([]);
  }
  await page.setViewportSize(SIZES[0]);
}
