// A sandboxed command that may reach no host starts without the library's network relays, and is as walled as before.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox, type OwnedRunJail } from './os-sandbox';
import { quotedWords, withoutRelays } from './relays';

describe('quotedWords', () => {
  it("reads back exactly what the library's quote wrote, and nothing else", () => {
    const words = ['bwrap', '--setenv', 'A', 'it\'s a "b" $x\nnext', '', '--', '/bin/bash', '-c', "echo 'hi'"];
    expect(quotedWords(quote(words))).toEqual(words);
    expect(quotedWords('a "b"')).toBeNull();
    expect(quotedWords("a 'b")).toBeNull();
    expect(quotedWords('a  b')).toBeNull();
    expect(quotedWords('a $b')).toBeNull();
  });
});

describe('withoutRelays', () => {
  const relayScript = (command: string) =>
    [
      '{ socat TCP6-LISTEN:3128,ipv6only=0 UNIX-CONNECT:/tmp/h.sock || exec socat TCP4-LISTEN:3128 UNIX-CONNECT:/tmp/h.sock; } >/dev/null 2>&1 &',
      '_srt_http=$!',
      'while false; do',
      'done',
      'unset _srt_since _srt_now _srt_up _srt_counts _srt_kind _srt_skip _srt_inuse _srt_http _srt_socks',
      command,
    ].join('\n');
  it('keeps the bubblewrap arguments and runs the command the relays would have run', () => {
    const command = `SRT_ALLOW_NESTED_USERNS=0 /x/apply-seccomp /bin/bash -c ${quote(["echo 'a'\necho b"])}`;
    const wrapped = quote(['bwrap', '--unshare-net', '--ro-bind', '/', '/', '--', '/bin/bash', '-c', quote(['/bin/bash', '-c', relayScript(command)])]);
    expect(withoutRelays(wrapped)).toBe(quote(['bwrap', '--unshare-net', '--ro-bind', '/', '/', '--', '/bin/bash', '-c', command]));
  });
  it('leaves any other shape as the library wrote it', () => {
    const noRelays = quote(['bwrap', '--unshare-net', '--', '/bin/bash', '-c', 'true']);
    expect(withoutRelays(noRelays)).toBe(noRelays);
    const argsFile = quote(['bwrap', '--args', '3', '--', '/bin/bash', '-c', quote(['/bin/bash', '-c', relayScript('true')]), 'extra']);
    expect(withoutRelays(argsFile)).toBe(argsFile);
    expect(withoutRelays('sandbox-exec -p x /bin/bash -c true')).toBe('sandbox-exec -p x /bin/bash -c true');
  });
});

describe.skipIf(!SANDBOX_AVAILABLE || process.platform !== 'linux')(
  SANDBOX_AVAILABLE ? 'a sandboxed command with no host to reach' : `a sandboxed command with no host to reach — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    let sandbox: OsSandbox;
    let jail: OwnedRunJail;
    let worktree: string;
    beforeAll(async () => {
      const repo = makeRepo();
      worktree = join(tempDir(), 'wt');
      sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
      sandbox = createOsSandbox({ mode: 'auto', ratchetHome: tempDir('ratchet-home-'), env: process.env });
      jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
    });
    afterAll(async () => {
      jail?.release();
      await sandbox?.dispose();
    });

    const run = async (command: string, extraHosts?: string[]) => {
      const w = await jail.wrap('/bin/bash', command, extraHosts ? { extraHosts } : undefined);
      try {
        return { script: w.args.join(' '), ...spawnSync(w.file, w.args, { cwd: worktree, env: w.env, encoding: 'utf8' }) };
      } finally {
        w.done();
      }
    };

    it('starts no relay, keeps its exit status, and has no network but loopback', async () => {
      const r = await run(`echo "$HOME"; grep -c : /proc/net/dev; (exec 3<>/dev/tcp/127.0.0.1/3128) 2>&1 || echo refused; exit 3`);
      expect(r.script).not.toContain('TCP6-LISTEN');
      expect(r.status).toBe(3);
      const [home, interfaces, ...rest] = r.stdout.trim().split('\n');
      expect(home).toBe(jail.env.HOME);
      // /proc/net/dev has one line with a colon per interface: only lo.
      expect(interfaces).toBe('1');
      expect(rest.join('\n')).toMatch(/refused/);
    });

    it("is still the sandbox: the user's home and Ratchet's stay unwritable", async () => {
      const r = await run(`touch ${quote([join(process.env.HOME ?? '/root', 'ratchet-relays-test')])} 2>&1; echo done`);
      expect(r.stdout).toMatch(/Read-only file system|Permission denied|No such file/);
    });

    it('still starts the relays for a command with a host to reach', async () => {
      const r = await run('echo ok', ['downloads.corp.example']);
      expect(r.script).toContain('TCP6-LISTEN:3128');
      expect(r.stdout).toBe('ok\n');
    });
  },
);
