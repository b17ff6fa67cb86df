// What a team run carries of its remote: the URL without the submitter's credentials, the account of an ssh URL kept.
import { describe, expect, it } from 'vitest';
import { publicRemote } from './team-git';

describe('publicRemote', () => {
  it("drops a token and user name from an http(s) remote (a CI checkout's), keeping the rest as written", () => {
    expect(publicRemote('https://ci-bot:ghp_tok3n@github.example/team/calc.git')).toBe('https://github.example/team/calc.git');
    expect(publicRemote('https://x-access-token:abc@host:8443/a/b.git?x=1')).toBe('https://host:8443/a/b.git?x=1');
    expect(publicRemote('http://ghp_only@host/x')).toBe('http://host/x');
    expect(publicRemote('https://u:p@ss@host/x')).toBe('https://host/x');
  });

  it("keeps an ssh remote's account and drops a password; leaves remotes without credentials alone", () => {
    expect(publicRemote('ssh://git@host/x.git')).toBe('ssh://git@host/x.git');
    expect(publicRemote('ssh://git:secret@host:22/x.git')).toBe('ssh://git@host:22/x.git');
    expect(publicRemote('git@host:team/x.git')).toBe('git@host:team/x.git');
    expect(publicRemote('/srv/git/x.git')).toBe('/srv/git/x.git');
    expect(publicRemote('https://host/x@y.git')).toBe('https://host/x@y.git');
  });
});
