// The per-install id under RATCHET_HOME (`install-id`): made once, read afterwards; it scopes the host's cookie to this install.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VALID = /^[a-f0-9]{16}$/;

function readId(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return VALID.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** This install's id (16 hex digits). Published with link(2), so two processes starting at once agree on one id. */
export function installId(home: string): string {
  const file = join(home, 'install-id');
  const existing = readId(file);
  if (existing) return existing;
  mkdirSync(home, { recursive: true });
  const id = randomBytes(8).toString('hex');
  const tmp = `${file}.${process.pid}.${id}`;
  writeFileSync(tmp, `${id}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = readId(file);
    if (theirs) return theirs;
    // A damaged file (not an id): replace it.
    renameSync(tmp, file);
    return id;
  } finally {
    rmSync(tmp, { force: true });
  }
}
