// Runs' private folders: one run's sandbox sees no other run's, and their root is this user's alone (0700, owned, no link).
import { chmodSync, chownSync, mkdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { ensurePrivateRoot, makePrivateDir, privateRoot, removePrivateDir } from './private-dirs';
import { runJailed } from './testing/run-jailed';

let ratchetHome: string;
let sandbox: OsSandbox;

beforeAll(() => {
  ratchetHome = realpathSync(tempDir('ratchet-private-home-'));
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
});
afterAll(async () => {
  await sandbox?.dispose();
  rmSync(ratchetHome, { recursive: true, force: true });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'private folders of two runs' : `private folders — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("run B's sandboxed command can neither list nor read run A's private folder (its HOME, TMPDIR, a command agent's transcripts)", async () => {
    const wtA = join(ratchetHome, 'worktrees', `private-a-${process.pid}`);
    const wtB = join(ratchetHome, 'worktrees', `private-b-${process.pid}`);
    mkdirSync(wtA, { recursive: true });
    mkdirSync(wtB, { recursive: true });
    const jailA = await sandbox.forRun({ worktree: wtA, network: [], envNames: [] });
    const jailB = await sandbox.forRun({ worktree: wtB, network: [], envNames: [] });
    try {
      const homeA = jailA.env.HOME!;
      const a = await runJailed(jailA, 'mkdir -p "$HOME/.claude/projects" && echo transcript-of-a > "$HOME/.claude/projects/session.jsonl" && echo wrote', {
        cwd: wtA,
      });
      expect(a.output).toContain('wrote');
      const dirA = join(homeA, '..');
      const b = await runJailed(
        jailB,
        [
          `ls -a ${JSON.stringify(dirA)} 2>&1 | sed 's/^/list: /'`,
          `cat ${JSON.stringify(join(homeA, '.claude/projects/session.jsonl'))} 2>&1 | sed 's/^/read: /'`,
          `ls ${JSON.stringify(privateRoot())} 2>&1 | sed 's/^/root: /'`,
          'echo mine > "$HOME/own" && cat "$HOME/own"',
          // The empty folder the root is hidden under takes no writes either (no memory to fill there).
          `echo x > ${JSON.stringify(join(privateRoot(), 'planted'))}`,
        ].join('\n'),
        { cwd: wtB },
      );
      expect(b.output).not.toContain('transcript-of-a');
      expect(b.output).not.toMatch(/^list: home$/m);
      expect(b.output).not.toContain(`root: ${wtA.split('/').pop()}`);
      // Its own folder is there and writable.
      expect(b.output).toMatch(/^mine$/m);
      expect(b.output).toMatch(/planted: Read-only file system/);
    } finally {
      jailA.release();
      jailB.release();
    }
  });
});

describe('the root of the private folders', () => {
  it('is made 0700 and used when it is a folder of this user open to no one else', () => {
    const parent = tempDir('ratchet-private-root-');
    try {
      const root = join(parent, 'root');
      expect(ensurePrivateRoot(root)).toBe(root);
      expect(statSync(root).mode & 0o777).toBe(0o700);
      const priv = makePrivateDir('/r/worktrees/run-1', root);
      expect(statSync(priv.home).isDirectory()).toBe(true);
      removePrivateDir(priv.dir);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('is refused with a wider mode, as a link, or owned by another user — never repaired', () => {
    const parent = tempDir('ratchet-private-root-');
    try {
      const wide = join(parent, 'wide');
      mkdirSync(wide);
      chmodSync(wide, 0o777);
      expect(() => makePrivateDir('/r/worktrees/run-1', wide)).toThrow(/others may open it \(mode 0777/);
      expect(statSync(wide).mode & 0o777).toBe(0o777);

      const real = join(parent, 'real');
      mkdirSync(real, { mode: 0o700 });
      const link = join(parent, 'link');
      symlinkSync(real, link);
      expect(() => ensurePrivateRoot(link)).toThrow(/not a folder/);

      const file = join(parent, 'file');
      writeFileSync(file, '');
      expect(() => ensurePrivateRoot(file)).toThrow(/not a folder/);

      if (process.getuid?.() === 0) {
        // Only root can give a folder away; as another user the check is the same comparison.
        const theirs = join(parent, 'theirs');
        mkdirSync(theirs, { mode: 0o700 });
        chownSync(theirs, 65534, 65534);
        expect(() => ensurePrivateRoot(theirs)).toThrow(/belongs to uid 65534/);
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("is this user's own name under the temp folder", () => {
    const uid = process.getuid?.();
    if (uid !== undefined) expect(privateRoot()).toMatch(new RegExp(`ratchet-sandbox-${uid}$`));
  });
});
