// The sandbox's environment allowlist keeps the forge's token out, even when a workflow lists it.
import { describe, expect, it } from 'vitest';
import { allowlistEnv, runEnv } from './sandbox-env';

const ENV = { PATH: '/usr/bin', GITHUB_TOKEN: 'ghp_secret1', GH_TOKEN: 'ghp_secret2', NODE_OPTIONS: '--x', HOME: '/home/u' };

describe('the forge token never enters the sandbox', () => {
  it('GITHUB_TOKEN and GH_TOKEN stay out of a run’s environment even when sandbox.env lists them; another listed name passes', () => {
    const names = ['GITHUB_TOKEN', 'GH_TOKEN', 'NODE_OPTIONS'];
    const env = runEnv(ENV, { home: '/p/home', tmpDir: '/p/tmp', names, path: '/usr/bin', toolchain: {}, caches: {} });
    expect(env.NODE_OPTIONS).toBe('--x');
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.GH_TOKEN).toBeUndefined();
    expect(JSON.stringify(env)).not.toMatch(/ghp_secret/);
    const agentShell = allowlistEnv(ENV, { home: '/p/home', tmpDir: '/p/tmp', names });
    expect(JSON.stringify(agentShell)).not.toMatch(/ghp_secret/);
  });
});
