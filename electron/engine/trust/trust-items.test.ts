// What the trust prompt lists for a workflow, and which entries it warns about.
import { describe, expect, it } from 'vitest';
import { WorkflowFile } from '../workflow/schema';
import { looksSecret, trustItems, trustLines } from './trust-items';

const wf = (extra: object) => WorkflowFile.parse({ gates: { test: 'npm test' }, steps: [{ title: 'One' }], ...extra });

describe('trust items', () => {
  it('warns on secret-looking variable names and not on ordinary ones', () => {
    for (const name of [
      'ANTHROPIC_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_PROFILE',
      'GITHUB_TOKEN',
      'NPM_TOKEN',
      'DB_PASSWORD',
      'PGPASSWORD',
      'SSH_AUTH_SOCK',
      'DATABASE_URL',
      'STRIPE_SECRET',
      'MY_PRIVATE_KEY',
      'CLIENT_CREDENTIALS',
    ]) {
      expect(looksSecret(name), name).toBe(true);
    }
    for (const name of ['NODE_OPTIONS', 'NODE_ENV', 'CI', 'PYTHONPATH', 'NPM_CONFIG_REGISTRY', 'LANG', 'KEYBOARD_LAYOUT', 'PATH']) {
      expect(looksSecret(name), name).toBe(false);
    }
  });

  it('lists the agent and every gate of the smallest workflow, and nothing else', () => {
    expect(trustItems(wf({}))).toEqual([
      { source: 'gate test', command: 'npm test' },
      { source: 'agent', command: 'anthropic (model claude-sonnet-5-5)' },
    ]);
  });

  it('says which program of yours a registry entry runs outside the sandbox to find its host (none for maven: files are read)', () => {
    const items = trustItems(wf({ sandbox: { network: ['registry:pypi', 'registry:npm', 'registry:maven'] } }));
    const warning = (entry: string) => items.find((i) => i.command.startsWith(entry))?.warning;
    expect(warning('registry:pypi')).toMatch(/runs your own `python3 -I -m pip config list` outside the sandbox.*empty folder/);
    expect(warning('registry:npm')).toMatch(/runs your own `npm config get registry`/);
    expect(warning('registry:maven')).toBeUndefined();
  });

  it('spells a registry entry out, warns on wildcards and local hosts, and on copying everything or a secret', () => {
    const items = trustItems(
      wf({ sandbox: { network: ['registry:pypi', '*.corp.example', 'db.local:5432', 'pkg.example.org:443'] }, copy: ['**/*', '.npmrc', 'fixtures/data.json'] }),
    );
    const line = (source: string, command: string) => items.find((i) => i.source === source && i.command.startsWith(command));
    expect(line('sandbox.network', 'registry:pypi')?.command).toContain('the package registry your pypi is configured with');
    expect(line('sandbox.network', '*.corp.example')?.warning).toContain('wildcard');
    expect(line('sandbox.network', 'db.local:5432')?.warning).toContain('your own machine');
    expect(line('sandbox.network', 'pkg.example.org:443')?.warning).toBeUndefined();
    expect(line('copy', '**/*')?.warning).toContain('every file');
    expect(line('copy', '.npmrc')?.warning).toContain('secret');
    expect(line('copy', 'fixtures/data.json')?.warning).toBeUndefined();
  });

  it('prints each item on a line and its warning under it', () => {
    expect(
      trustLines([
        { source: 'sandbox.env', command: 'GITHUB_TOKEN', warning: 'looks like a secret' },
        { source: 'gate t', command: 'true' },
      ]),
    ).toEqual(['  sandbox.env: GITHUB_TOKEN', '    ! looks like a secret', '  gate t: true']);
  });
});
