// The run policy as data, and the macOS (sandbox-exec) profile the library makes from it — checked here because this machine cannot run macOS's sandbox.
import { describe, expect, it } from 'vitest';
// Deep import: the library's seatbelt generator is pure text, so the macOS profile can be checked on Linux.
import { wrapCommandWithSandboxMacOS } from '@anthropic-ai/sandbox-runtime/dist/sandbox/macos-sandbox-utils.js';
import { anthropicApiHost, runPolicy, SECRET_HOME_PATHS } from './sandbox-policy';

const home = '/Users/u/Library/Application Support/ratchet';
const worktree = `${home}/worktrees/app-1a2b3c`;
const input = {
  worktree,
  privateDir: '/tmp/ratchet-sandbox/app-1a2b3c',
  ratchetHome: home,
  userHome: '/Users/u',
  network: ['registry.example.com', ' ', 'registry.example.com'],
};

describe('runPolicy', () => {
  const p = runPolicy(input);
  it('writes only in the worktree and the private folder', () => {
    expect(p.filesystem.allowWrite).toEqual([worktree, '/tmp/ratchet-sandbox/app-1a2b3c']);
  });
  it("hides RATCHET_HOME and the user's home (credential stores with it), but not the worktree inside RATCHET_HOME", () => {
    expect(p.filesystem.denyRead).toContain(home);
    expect(p.filesystem.denyRead).toContain('/Users/u');
    expect(SECRET_HOME_PATHS.length).toBeGreaterThan(10);
    expect(p.filesystem.allowRead).toEqual([worktree]);
  });
  it("denies the user's home, and gives back only what builds need below it, never a credential store", () => {
    const q = runPolicy({
      ...input,
      homeReads: [
        '/Users/u/.cargo/bin',
        '/Users/u/.rustup',
        '/Users/u',
        '/',
        '/opt/tools',
        '/Users/u/.ssh/bin',
        '/Users/u/.claude/local',
        '/Users/u/.local/share',
      ],
    });
    expect(q.filesystem.denyRead).toContain('/Users/u');
    expect(q.filesystem.allowRead).toEqual([worktree, '/Users/u/.cargo/bin', '/Users/u/.rustup', '/Users/u/.local/share']);
    // The second wall: a credential store inside a folder given back keeps its own deny.
    expect(q.filesystem.denyRead).toContain('/Users/u/.local/share/keyrings');
    expect(q.filesystem.denyRead).not.toContain('/Users/u/.ssh');
  });
  it('gives back a home folder whose name starts with two dots (`..tools` is below the home, not outside it)', () => {
    const q = runPolicy({ ...input, homeReads: ['/Users/u/..tools/bin', '/Users/..u/bin'] });
    expect(q.filesystem.allowRead).toEqual([worktree, '/Users/u/..tools/bin']);
  });
  it('denies every credential store by name when the home cannot be denied as a whole', () => {
    const q = runPolicy({ ...input, userHome: '/' });
    for (const s of ['.claude', '.claude.json', '.pgpass', '.m2/settings.xml', '.bash_history', '.codex']) expect(q.filesystem.denyRead).toContain(`/${s}`);
  });
  it('lists each host once', () => {
    expect(p.allowedDomains).toEqual(['registry.example.com']);
  });
});

describe("runPolicy: the repository's git dir", () => {
  it("gives back a team worker's clone's git dir under RATCHET_HOME (read-only), and nothing else of RATCHET_HOME", () => {
    const ratchetHome = '/srv/ratchet-home';
    const gitDir = `${ratchetHome}/team/clones/calc-0123456789ab/.git`;
    const q = runPolicy({ ...input, ratchetHome, worktree: `${ratchetHome}/worktrees/calc-1`, gitDir });
    expect(q.filesystem.denyRead).toContain(ratchetHome);
    expect(q.filesystem.allowRead).toEqual([`${ratchetHome}/worktrees/calc-1`, gitDir]);
    expect(q.filesystem.allowWrite).not.toContain(gitDir);
  });
  it('never opens RATCHET_HOME or the home as a whole through a git dir that holds them', () => {
    for (const gitDir of ['/srv', '/Users/u', '/']) {
      const q = runPolicy({ ...input, ratchetHome: '/srv/ratchet-home', gitDir });
      expect(q.filesystem.allowRead).not.toContain(gitDir);
    }
  });
});

describe('runPolicy with the root of the private folders', () => {
  it("denies the root (every other run's folder) and gives back only this run's, on Linux and in the macOS profile", () => {
    const p = runPolicy({ ...input, privateDir: '/tmp/ratchet-sandbox-501/app-1a2b3c', privateRoot: '/tmp/ratchet-sandbox-501' });
    expect(p.filesystem.denyRead).toContain('/tmp/ratchet-sandbox-501');
    expect(p.filesystem.allowRead).toContain('/tmp/ratchet-sandbox-501/app-1a2b3c');
    const cmd = wrapCommandWithSandboxMacOS({
      command: 'true',
      needsNetworkRestriction: false,
      readConfig: { denyOnly: p.filesystem.denyRead, allowWithinDeny: p.filesystem.allowRead },
      writeConfig: { allowOnly: p.filesystem.allowWrite, denyWithinAllow: p.filesystem.denyWrite },
      binShell: '/bin/bash',
    });
    const denied = cmd.slice(cmd.indexOf('(deny file-read*'));
    expect(denied).toContain('(subpath "/tmp/ratchet-sandbox-501")');
    const allowed = cmd.slice(cmd.indexOf('(allow file-read*\n'));
    expect(allowed).toContain('(subpath "/tmp/ratchet-sandbox-501/app-1a2b3c")');
  });
});

describe('anthropicApiHost', () => {
  it("is ANTHROPIC_BASE_URL's host (with its port), else the default", () => {
    expect(anthropicApiHost({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010/v1' })).toBe('127.0.0.1:4010');
    expect(anthropicApiHost({ ANTHROPIC_BASE_URL: 'https://llm.example.com' })).toBe('llm.example.com');
    expect(anthropicApiHost({})).toBe('api.anthropic.com');
  });
});

describe('the macOS profile made from the policy', () => {
  const p = runPolicy(input);
  // The same translation SandboxManager applies before calling the macOS wrapper.
  const cmd = wrapCommandWithSandboxMacOS({
    command: 'npm test',
    needsNetworkRestriction: true,
    httpProxyPort: 3128,
    socksProxyPort: 1080,
    readConfig: { denyOnly: p.filesystem.denyRead, allowWithinDeny: p.filesystem.allowRead },
    writeConfig: { allowOnly: p.filesystem.allowWrite, denyWithinAllow: p.filesystem.denyWrite },
    binShell: '/bin/bash',
  });
  const block = (head: string) => {
    const start = cmd.indexOf(head);
    expect(start).toBeGreaterThan(-1);
    return cmd.slice(start, cmd.indexOf('(with message', start));
  };

  it('runs under sandbox-exec, denying by default', () => {
    expect(cmd).toMatch(/sandbox-exec/);
    expect(cmd).toContain('(deny default');
  });
  it("denies reading RATCHET_HOME and the user's home, and allows the worktree back", () => {
    const denied = block('(deny file-read*');
    expect(denied).toContain(`(subpath "${home}")`);
    expect(denied).toContain('(subpath "/Users/u")');
    expect(block('(allow file-read*\n')).toContain(`(subpath "${worktree}")`);
  });
  it('allows writes only under the worktree and the private folder', () => {
    const writes = block('(allow file-write*');
    expect(writes.match(/\(subpath "[^"]+"\)/g)).toEqual([`(subpath "${worktree}")`, '(subpath "/tmp/ratchet-sandbox/app-1a2b3c")']);
  });
  it('allows network only to the local proxy ports', () => {
    const outbound = cmd.match(/\(allow network-outbound[^\n]*/g) ?? [];
    expect(outbound).toEqual(['(allow network-outbound (remote ip "localhost:3128"))', '(allow network-outbound (remote ip "localhost:1080"))']);
  });
});
