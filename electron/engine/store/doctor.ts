// `ratchet doctor`: the store's health on request — SQLite's full integrity check, the schema version, sizes, processes
// that stopped without closing it — and what to do about each finding. Read-only: it never migrates or moves the file.
import Database from 'better-sqlite3';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';
import { openMarkersDir, staleMarkers } from './open-store';

export interface DoctorReport {
  file: string;
  exists: boolean;
  schemaVersion: number | null;
  newestSchema: number;
  integrity: { ok: boolean; problems: string[]; durationMs: number } | null;
  sizes: { fileBytes: number; walBytes: number; pageSize: number; pages: number; freePages: number; tables: Array<{ name: string; bytes: number }> } | null;
  /** Processes on this host that stopped without closing the store (their markers; removed when the check passes). */
  uncleanShutdowns: number;
  advice: string[];
  ok: boolean;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export function runDoctor(home: string): DoctorReport {
  const file = join(home, 'ratchet.db');
  const newestSchema = MIGRATIONS.at(-1)?.version ?? 0;
  const stale = staleMarkers(home);
  if (!existsSync(file)) {
    return {
      file,
      exists: false,
      schemaVersion: null,
      newestSchema,
      integrity: null,
      sizes: null,
      uncleanShutdowns: stale.length,
      ok: true,
      advice: [`There is no store at ${file} yet: any \`ratchet\` command or the app creates it.`],
    };
  }
  const advice: string[] = [];
  let schemaVersion: number | null = null;
  let integrity: DoctorReport['integrity'];
  let sizes: DoctorReport['sizes'] = null;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 10000');
    schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const started = Date.now();
    const rows = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    integrity = { ok: rows.length === 1 && rows[0] === 'ok', problems: rows.filter((r) => r !== 'ok'), durationMs: Date.now() - started };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const tables = db
      .prepare("SELECT name, pgsize AS bytes FROM dbstat WHERE aggregate = TRUE AND name NOT LIKE 'sqlite_%' ORDER BY bytes DESC")
      .all() as Array<{ name: string; bytes: number }>;
    sizes = {
      fileBytes: statSync(file).size,
      walBytes: existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0,
      pageSize,
      pages: db.pragma('page_count', { simple: true }) as number,
      freePages: db.pragma('freelist_count', { simple: true }) as number,
      tables,
    };
  } catch (err) {
    integrity = { ok: false, problems: [err instanceof Error ? err.message : String(err)], durationMs: 0 };
  } finally {
    db?.close();
  }

  if (integrity && !integrity.ok) {
    advice.push(
      `The store is damaged (${integrity.problems.slice(0, 3).join('; ')}). Close Ratchet, move ${file} aside (keep it: it still holds your history), ` +
        'start Ratchet again (it creates a new store), then run `ratchet recover <repo>` once per repository to rebuild the runs from their branches.',
    );
  } else if (stale.length) {
    // The check passed: the crashed processes' markers are done with (the next start would remove them too).
    for (const f of stale) rmSync(join(openMarkersDir(home), f), { force: true });
    advice.push(`${stale.length} Ratchet process(es) stopped without closing the store; the integrity check found nothing wrong.`);
  }
  if (schemaVersion !== null && schemaVersion < newestSchema)
    advice.push(`The store is at schema ${schemaVersion}; this Ratchet migrates it to ${newestSchema} at its next start (any command).`);
  if (schemaVersion !== null && schemaVersion > newestSchema)
    advice.push(`The store is at schema ${schemaVersion}, newer than this Ratchet (${newestSchema}): update Ratchet.`);
  if (sizes && sizes.freePages * sizes.pageSize > 100e6) {
    advice.push(`${mb(sizes.freePages * sizes.pageSize)} of the file is free pages (left by moved or deleted data); new writes reuse them.`);
  }
  const ok = Boolean(integrity?.ok) && (schemaVersion ?? 0) <= newestSchema;
  if (!advice.length) advice.push('Nothing to do: the store is healthy.');
  return { file, exists: true, schemaVersion, newestSchema, integrity, sizes, uncleanShutdowns: stale.length, advice, ok };
}

/** The report for a terminal. */
export function doctorText(r: DoctorReport): string {
  const lines = [`store ${r.file}${r.exists ? '' : ' (none yet)'}`];
  if (r.exists) {
    lines.push(`schema ${r.schemaVersion ?? '?'} (this Ratchet: ${r.newestSchema})`);
    if (r.integrity)
      lines.push(
        `integrity ${r.integrity.ok ? 'ok' : 'DAMAGED'} (${(r.integrity.durationMs / 1000).toFixed(1)} s)${r.integrity.ok ? '' : `\n  ${r.integrity.problems.slice(0, 10).join('\n  ')}`}`,
      );
    if (r.sizes) {
      lines.push(`size ${mb(r.sizes.fileBytes)} + ${mb(r.sizes.walBytes)} WAL, ${r.sizes.pages} pages of ${r.sizes.pageSize} B, ${r.sizes.freePages} free`);
      for (const t of r.sizes.tables.slice(0, 8)) lines.push(`  ${t.name.padEnd(28)} ${mb(t.bytes)}`);
    }
  }
  if (r.uncleanShutdowns) lines.push(`unclean shutdowns: ${r.uncleanShutdowns}`);
  lines.push('', ...r.advice);
  return lines.join('\n');
}
