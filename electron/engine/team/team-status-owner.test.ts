// STYLE.md's "a run's status has one owner", for team runs: the team's row of a run gets its status, reason and reason
// code from the run's workflow alone (team-workflow.ts, through TeamDb.projectRunStatus). The scan fails on any other
// module that writes them (the worker's mirror, its failure path, its takeover, the client's Stop, Resume and Retry did);
// the database test shows the store refusing a status through any other door. PostgreSQL part: skipped with the reason where there is none.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { STATUS_COLUMNS, TeamDb } from '../store/team-db';
import { NO_POSTGRES_REASON, teamDatabase } from '../testing/team-fixtures';
import { tempDir } from '../testing/temp-repo';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** The one module that writes a team run's status, and the store that holds the write. */
const OWNER = 'electron/engine/team/team-workflow.ts';
const STORE = 'electron/engine/store/team-db.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'testing' ? [] : sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

/** Each call `name(` in the text with its arguments (to the matching parenthesis). */
function calls(text: string, name: string): string[] {
  const found: string[] = [];
  for (let i = text.indexOf(`${name}(`); i >= 0; i = text.indexOf(`${name}(`, i + 1)) {
    let depth = 0;
    let j = i + name.length;
    for (; j < text.length; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')' && --depth === 0) break;
    }
    found.push(text.slice(i, j + 1));
  }
  return found;
}

/** Where a team run's status is written outside its workflow: `file: call`. */
function statusWritersOutsideWorkflow(files: string[]): string[] {
  const writes: string[] = [];
  const column = new RegExp(`\\b(${STATUS_COLUMNS.join('|')})\\b\\s*[:,}]`);
  for (const file of files) {
    const rel = relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    // The row's other columns go through updateRun; a status among them is a second writer.
    for (const c of calls(text, '.updateRun')) if (column.test(c.slice(c.indexOf(',')))) writes.push(`${rel}: ${c.replace(/\s+/g, ' ').slice(0, 120)}`);
    if (rel !== OWNER && rel !== STORE) for (const c of calls(text, 'projectRunStatus')) writes.push(`${rel}: ${c.replace(/\s+/g, ' ').slice(0, 120)}`);
    // Team SQL lives in the store; there, the status columns are set by projectRunStatus's statement and the new row's insert alone.
    if (rel === STORE) {
      const sets = text.match(/UPDATE ratchet\.runs SET [^`']*/g) ?? [];
      for (const s of sets)
        if (/\bstatus\s*=/.test(s) && !s.startsWith('UPDATE ratchet.runs SET status = $2, reason = $3, reason_code = $4')) writes.push(`${rel}: ${s}`);
      if ((text.match(/\.projectRunStatus|async projectRunStatus/g) ?? []).length !== 1)
        writes.push(`${rel}: projectRunStatus defined or called more than once`);
    }
  }
  return writes;
}

describe("a team run's status has one owner: its workflow", () => {
  it('is written by no module but team-workflow.ts (a scan of the engine, the CLI, the host and shared/)', () => {
    const files = ['electron', 'shared'].flatMap((d) => sources(join(ROOT, d)));
    expect(files.some((f) => f.endsWith('team-worker.ts'))).toBe(true);
    expect(statusWritersOutsideWorkflow(files)).toEqual([]);
    // The owner does write it (a scan that found no writer at all would prove nothing).
    expect(calls(readFileSync(join(ROOT, OWNER), 'utf8'), 'projectRunStatus')).toHaveLength(1);
  });

  it("catches a second writer: a status among updateRun's columns, or a call of projectRunStatus elsewhere", () => {
    const dir = tempDir('ratchet-owner-');
    const updates = join(dir, 'stop.ts');
    writeFileSync(updates, "export async function stop(db: any, id: string) {\n  await db.updateRun(id, {\n    reason: 'Stopped.', status,\n  });\n}\n");
    const projects = join(dir, 'resume.ts');
    writeFileSync(projects, "export const resume = (db: any, id: string) => db.projectRunStatus(id, { status: 'queued' });\n");
    const costs = join(dir, 'mirror.ts');
    writeFileSync(costs, 'export const mirror = (db: any, id: string, doc: { status: string }) => db.updateRun(id, { cost_usd: 1, doc });\n');
    expect(statusWritersOutsideWorkflow([updates, projects, costs])).toHaveLength(2);
  });
});

describe.skipIf(NO_POSTGRES_REASON)(`the team database keeps the one writer (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("refuses a status through updateRun, whatever the caller's types said; projectRunStatus writes it", async () => {
    const { url, drop } = await teamDatabase();
    cleanups.push(drop);
    const db = await TeamDb.open(url);
    cleanups.push(() => db.close());
    await db.insertRun({
      id: 'r1',
      title: 't',
      remote: 'file:///x.git',
      repo_name: 'x',
      submitted_by: 'u@h',
      priority: 0,
      steps_total: 2,
      task_budget_usd: null,
    });
    for (const column of STATUS_COLUMNS)
      await expect(db.updateRun('r1', { [column]: 'failed', cost_usd: 1 } as never)).rejects.toThrow(/written by its workflow alone/);
    expect(await db.getRun('r1')).toMatchObject({ status: 'queued', reason: null, reason_code: null, cost_usd: null });
    await db.projectRunStatus('r1', { status: 'running', reason: null, reason_code: null, worker: 'w1' });
    await db.updateRun('r1', { cost_usd: 0.5, steps_done: 1 });
    expect(await db.getRun('r1')).toMatchObject({ status: 'running', worker: 'w1', cost_usd: 0.5, steps_done: 1 });
  });
});
