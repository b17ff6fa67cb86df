// A toolchain a version manager cannot find is a missing tool, named with what installs it, never a network failure (issue 29, 6).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFailures } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { failedGate as gate } from '../testing/step-fixtures';
import { classifyGateFailure } from './classify';

const CORPUS = path.join(import.meta.dirname, 'classify-corpus');
const read = (name: string): string => fs.readFileSync(path.join(CORPUS, name), 'utf8');

function classify(output: string, over: Partial<GateResult> = {}) {
  return classifyGateFailure(gate(output, { command: 'pnpm test', ...over }), parseFailures({ output }), undefined, { network: [] });
}

describe('a toolchain the version manager cannot find', () => {
  it("pnpm through corepack, not in its cache, in a gate that reaches no host: pnpm's version named, corepack install suggested, no network entry", () => {
    for (const file of ['toolchain-corepack-download-noproxy.txt', 'toolchain-corepack-metadata-noproxy.txt']) {
      const c = classify(read(file));
      expect(c.errorClass, file).toBe('missing_dependency');
      expect(c.message, file).toMatch(/^pnpm 9\.15\.9 is not installed where corepack keeps it \(corepack tried to download it\)$/);
      const said = [c.message, ...c.hints].join('\n');
      expect(said, file).toContain('corepack install');
      expect(said, file).not.toMatch(/sandbox\.network|setup\.network|registry:npm|refused/);
    }
  });

  it('the other managers as they print it: pyenv, nvm, fnm, asdf, mise, volta, rustup', () => {
    const cases: Array<[string, string, RegExp]> = [
      ["pyenv: version `3.11.4' is not installed (set by /w/.python-version)\n", 'pytest', /^Python 3\.11\.4 is not installed .*pyenv/],
      [
        'N/A: version "v18.17.0 -> N/A" is not yet installed.\n\nYou need to run "nvm install v18.17.0" to install it before using it.\n',
        'npm test',
        /^Node v18\.17\.0 .*nvm/,
      ],
      ['error: Requested version v20.11.0 is not currently installed\n', 'npm test', /^Node v20\.11\.0 .*fnm/],
      [
        'No preset version installed for command node\nPlease install a version by running one of the following:\n\nasdf install nodejs 20.11.0\n',
        'node test.js',
        /^node is not installed .*asdf/,
      ],
      ['mise ERROR node@20.11.0 is not installed\n', 'npm test', /^node@20\.11\.0 .*mise/],
      [
        "info: syncing channel updates for '1.70.0-x86_64-unknown-linux-gnu'\nerror: could not download file\n",
        'cargo test',
        /^the Rust toolchain 1\.70\.0-x86_64-unknown-linux-gnu .*rustup/,
      ],
    ];
    for (const [out, command, message] of cases) {
      const c = classify(out, { command });
      expect(c.errorClass, out).toBe('missing_dependency');
      expect(c.message, out).toMatch(message);
      expect(c.hints.join('\n'), out).toMatch(/Install it outside Ratchet/);
    }
  });

  it('an npm install refused by the sandbox is still the network: only a version manager is named a missing tool', () => {
    const c = classify(read('net-noproxy-npm.txt'), { command: 'npm install' });
    expect(c.errorClass).toBe('environment');
    expect(c.message).toContain('The sandbox refused');
  });
});
