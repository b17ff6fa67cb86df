// The team database's URL in the desktop app: encrypted like the API key (its own file), RATCHET_TEAM_URL as the
// fallback, and the keyring's warnings said about the URL, not about an API key.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { loadTeamUrlStore, TEAM_BASIC_TEXT_WARNING, TEAM_UNAVAILABLE_WARNING } = await import('./team-secrets');

const URL = 'postgres://alice:s3cret-pw@db.example:5432/ratchet';
let file: string;
beforeEach(() => {
  fake.resetFakeElectron();
  file = join(mkdtempSync(join(tmpdir(), 'ratchet-team-secrets-')), 'userData', 'team-url.enc');
});

describe('loadTeamUrlStore', () => {
  it('saves the URL encrypted, reads it back in the next session, and falls back to RATCHET_TEAM_URL when removed', async () => {
    const a = await loadTeamUrlStore({ file, platform: 'linux', envUrl: 'postgres://env@h/db' });
    expect([a.get(), a.source]).toEqual(['postgres://env@h/db', 'environment']);
    await a.set(URL);
    expect(readFileSync(file).toString('latin1')).not.toContain('s3cret-pw');
    const b = await loadTeamUrlStore({ file, platform: 'linux', envUrl: 'postgres://env@h/db' });
    expect([b.get(), b.source, b.warning]).toEqual([URL, 'safe_storage', null]);
    await b.set(null);
    expect(existsSync(file)).toBe(false);
    expect([b.get(), b.source]).toEqual(['postgres://env@h/db', 'environment']);
  });

  it('speaks of the team URL when the keyring is weak or missing, and saves nothing without one', async () => {
    fake.safeStorage.backend = 'basic_text';
    expect((await loadTeamUrlStore({ file, platform: 'linux' })).warning).toBe(TEAM_BASIC_TEXT_WARNING);
    fake.safeStorage.available = false;
    const s = await loadTeamUrlStore({ file, platform: 'linux' });
    expect(s.warning).toBe(TEAM_UNAVAILABLE_WARNING);
    await expect(s.set(URL)).rejects.toMatchObject({ code: 'keychain_unavailable', message: TEAM_UNAVAILABLE_WARNING });
    expect(existsSync(file)).toBe(false);
  });
});
