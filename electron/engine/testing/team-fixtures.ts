// Test helpers for team mode: a fresh PostgreSQL database per test (skipped, with the reason, where there is none), a
// repository with a bare remote standing in for the team's, and `ratchet worker` processes with their own homes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { ScriptContent, ScriptFn } from '../../scripted/server';
import { fixtureProject, say, turn } from './fixture-project';
import { sh, tempDir } from './temp-repo';
import { TeamDb } from '../store/team-db';
import { migrateDbos } from '../team/dbos-log';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const BIN = join(ROOT, 'bin', 'ratchet.mjs');
/** bin/ratchet.mjs re-executes itself under Node 22 when started by an older Node: start the right Node directly (a kill then hits the worker). */
export const NODE = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : join(ROOT, 'node_modules', 'node', 'bin', 'node');

/** The PostgreSQL server tests make their databases on (CI: .ci/run starts Debian's PostgreSQL and sets it). */
const ADMIN_URL = process.env.RATCHET_TEST_PG_URL ?? '';

async function reachable(url: string): Promise<string | null> {
  if (!url) return 'no PostgreSQL for team tests: set RATCHET_TEST_PG_URL=postgres://user:password@host:5432/postgres (.ci/run starts one)';
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return null;
  } catch (e) {
    return `PostgreSQL at RATCHET_TEST_PG_URL is not reachable: ${(e as Error).message}`;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Why team tests cannot run here, or null (checked once per test file, before its tests are collected). */
export const NO_POSTGRES_REASON: string | null = await reachable(ADMIN_URL);

/** The URL of database `name` on the test server. */
function urlOf(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A database with Ratchet's and DBOS's tables made, to copy (CREATE DATABASE … TEMPLATE) rather than migrate again:
 * migrating a fresh team database takes seconds (DBOS's indexes), a copy a fraction of one. Its name carries a hash of the
 * migrations (team-db.ts) and of DBOS's version, so a schema change makes a new one. Made once, under a lock, by whichever
 * test process comes first; built under another name and renamed, so a half-made template is never copied.
 */
let template: Promise<string> | undefined;
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dbos = (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@dbos-inc', 'dbos-sdk', 'package.json'), 'utf8')) as { version: string }).version;
    const schema = createHash('sha256')
      .update(readFileSync(join(ROOT, 'electron', 'engine', 'store', 'team-db.ts')))
      .update(dbos)
      .digest('hex')
      .slice(0, 12);
    const name = `ratchet_tpl_${schema}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(727101)');
      const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rows.length) {
        const building = `${name}_${Math.random().toString(36).slice(2, 8)}`;
        await admin.query(`CREATE DATABASE ${building}`);
        const url = urlOf(building);
        const db = await TeamDb.open(url, { underLock: () => migrateDbos(url) });
        await db.close();
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [building]);
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(727101)').catch(() => undefined);
      await admin.end();
    }
    return name;
  })();
  return template;
}

/**
 * A new database for one test; dropped (its connections ended) by the returned function. Empty, or with `migrated`, a
 * copy of one whose tables are made (for tests about what runs on a team, not about making its tables: those, the
 * several workers that start together on a fresh database of team-kill.test.ts among them, keep an empty one).
 */
export async function teamDatabase(opts: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ratchet_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const from = opts.migrated ? await migratedTemplate() : null;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(from ? `CREATE DATABASE ${name} TEMPLATE ${from}` : `CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: urlOf(name),
    async drop() {
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await a.end();
    },
  };
}

/** A project (fixtureProject) whose `origin` is a bare repository standing in for the team's remote, with main pushed. */
export function teamRepo(workflow?: string): { repo: string; remote: string; workflowFile: string } {
  const p = fixtureProject(workflow);
  const remote = join(tempDir('ratchet-remote-'), 'calc.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  sh(p.repo, 'remote', 'add', 'origin', remote);
  sh(p.repo, 'push', '-q', 'origin', 'main');
  return { repo: p.repo, remote, workflowFile: p.workflowFile };
}

export interface WorkerProcess {
  home: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>;
}

/** Starts `ratchet worker --team <url>` as its own process with its own home (RATCHET_HOME). */
export function startWorker(url: string, env: NodeJS.ProcessEnv, args: string[] = []): WorkerProcess {
  const home = join(tempDir('ratchet-worker-'), 'home');
  let out = '';
  const child = spawn(NODE, [BIN, 'worker', '--team', url, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | string | null>((done) => child.on('exit', (code, signal) => done(code ?? signal)));
  return { home, child, output: () => out, exited };
}

/** Writes a file in a temporary folder and returns its path. */
export function tempFile(name: string, text: string): string {
  const file = join(tempDir('ratchet-file-'), name);
  writeFileSync(file, text);
  return file;
}

/**
 * The scripted agent's work on step `k` as a real agent does it: it reads the history and the status first (in its
 * sandboxed shell), and writes steps/k.txt only when git answered — so a worktree whose git the sandbox hides changes
 * nothing, and the step fails (no_change).
 */
export function readGitThenWork(k: string, text = `step ${k}\n`): ScriptContent {
  const write = `mkdir -p steps && printf %s ${JSON.stringify(text)} > steps/${k}.txt`;
  return { type: 'tool_use', name: 'bash', input: { command: `git log --oneline -3 && git status --short && ${write}` } };
}

/** byStep (recovery-fixtures.ts) with an agent that reads git history before it works (readGitThenWork). */
export const readsGitFirst: ScriptFn = (req) => {
  const last = (req.body as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1);
  const isToolResult = Array.isArray(last?.content) && (last.content as Array<{ type: string }>).some((b) => b.type === 'tool_result');
  if (isToolResult) return say('done');
  const k = (/## Step (\d+) of \d+/.exec(req.lastUserText) ?? /step (\d+)/i.exec(req.lastUserText))?.[1] ?? 'x';
  return turn(readGitThenWork(k, `step ${k} at ${Date.now()} ${Math.random()}\n`));
};
