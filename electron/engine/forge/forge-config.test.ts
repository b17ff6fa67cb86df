// Which GitHub repository, API and token the forge uses, from the flag, the workflow, origin's URL and the environment.
import { describe, expect, it } from 'vitest';
import { chooseRepo, githubApiUrl, githubToken, PUBLIC_GITHUB_API, repoFromRemoteUrl, withSavedForge } from './forge-config';

describe('the repository from origin’s URL, in every form git takes for GitHub', () => {
  it.each([
    'https://github.com/acme/widget.git',
    'https://github.com/acme/widget',
    'https://github.com/acme/widget/',
    'https://user:secret@github.com/acme/widget.git',
    'git@github.com:acme/widget.git',
    'git@github.com:acme/widget',
    'ssh://git@github.com/acme/widget.git',
    'ssh://git@ssh.github.com:443/acme/widget.git',
    'git://github.com/acme/widget.git',
    'git+ssh://git@github.com/acme/widget.git',
    'HTTPS://GitHub.com/acme/widget.git',
  ])('%s is acme/widget', (url) => {
    expect(repoFromRemoteUrl(url, PUBLIC_GITHUB_API)).toEqual({ owner: 'acme', name: 'widget' });
  });

  it.each(['https://gitlab.com/acme/widget.git', '/srv/git/widget.git', 'file:///srv/git/widget.git', 'https://github.com/acme', 'git@github.com:widget.git'])(
    '%s is not a GitHub repository',
    (url) => {
      expect(repoFromRemoteUrl(url, PUBLIC_GITHUB_API)).toBeNull();
    },
  );

  it('GitHub Enterprise: a remote on the API’s own host is a repository there, github.com is not', () => {
    const api = 'https://ghe.example.com/api/v3';
    expect(repoFromRemoteUrl('git@ghe.example.com:team/svc.git', api)).toEqual({ owner: 'team', name: 'svc' });
    expect(repoFromRemoteUrl('git@github.com:team/svc.git', api)).toBeNull();
  });
});

describe('choosing the repository', () => {
  const remoteUrl = 'git@github.com:acme/widget.git';
  it('--github-repo first, then the workflow’s forge.repo, then origin', () => {
    expect(chooseRepo({ flag: 'o/f', workflow: 'o/w', remoteUrl, apiUrl: PUBLIC_GITHUB_API })).toEqual({ repo: { owner: 'o', name: 'f' }, from: 'flag' });
    expect(chooseRepo({ workflow: 'o/w', remoteUrl, apiUrl: PUBLIC_GITHUB_API })).toEqual({ repo: { owner: 'o', name: 'w' }, from: 'workflow' });
    expect(chooseRepo({ remoteUrl, apiUrl: PUBLIC_GITHUB_API })).toEqual({ repo: { owner: 'acme', name: 'widget' }, from: 'origin' });
  });

  it('refuses a slug that is not owner/name, and says what to pass when origin is not on GitHub', () => {
    expect(() => chooseRepo({ flag: 'acme', apiUrl: PUBLIC_GITHUB_API })).toThrow(/--github-repo must be owner\/name/);
    expect(() => chooseRepo({ flag: 'a/b/c', apiUrl: PUBLIC_GITHUB_API })).toThrow(/owner\/name/);
    expect(() => chooseRepo({ remoteUrl: '/srv/git/w.git', apiUrl: PUBLIC_GITHUB_API })).toThrow(/--github-repo owner\/name/);
  });
});

describe('token and API root from the environment', () => {
  it('GITHUB_TOKEN before GH_TOKEN; blank is none', () => {
    expect(githubToken({ GITHUB_TOKEN: 'a', GH_TOKEN: 'b' })).toBe('a');
    expect(githubToken({ GITHUB_TOKEN: ' ', GH_TOKEN: 'b' })).toBe('b');
    expect(githubToken({})).toBeNull();
  });

  it('RATCHET_GITHUB_API_URL, else the public API; a token never goes over plain http except to this machine', () => {
    expect(githubApiUrl({})).toBe(PUBLIC_GITHUB_API);
    expect(githubApiUrl({ RATCHET_GITHUB_API_URL: 'https://ghe.example.com/api/v3/' })).toBe('https://ghe.example.com/api/v3');
    expect(githubApiUrl({ RATCHET_GITHUB_API_URL: 'http://127.0.0.1:4000' })).toBe('http://127.0.0.1:4000');
    expect(() => githubApiUrl({ RATCHET_GITHUB_API_URL: 'http://ghe.example.com/api/v3' })).toThrow(/must be https/);
    expect(() => githubApiUrl({ RATCHET_GITHUB_API_URL: 'not a url' })).toThrow(/not a URL/);
  });

  it('Settings › GitHub fills in the token and API address the environment leaves unset; the environment wins, and is not changed', () => {
    const saved = { token: 'saved-token', apiUrl: 'https://ghe.example.com/api/v3' };
    const env = { HOME: '/h', RATCHET_GITHUB_API_URL: ' ' };
    const filled = withSavedForge(env, saved);
    expect(githubToken(filled)).toBe('saved-token');
    expect(githubApiUrl(filled)).toBe('https://ghe.example.com/api/v3');
    expect(env).toEqual({ HOME: '/h', RATCHET_GITHUB_API_URL: ' ' });
    const own = withSavedForge({ GH_TOKEN: 'env-token', RATCHET_GITHUB_API_URL: 'http://127.0.0.1:4000' }, saved);
    expect(githubToken(own)).toBe('env-token');
    expect(githubApiUrl(own)).toBe('http://127.0.0.1:4000');
    expect(githubApiUrl(withSavedForge({}, { apiUrl: null }))).toBe(PUBLIC_GITHUB_API);
  });
});
