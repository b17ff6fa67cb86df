// Environment or code: what the classifier makes of the attempt's diff, the manifests, the base commit's failures and
// the gate's network list, on real outputs recorded by scripts/record-corpus/record-classify.sh.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFailures } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { classifyGateFailure } from './classify';
import type { ClassifyContext } from './classify-context';
import { missingNames } from './classify-missing';
import { failedGate as gate } from '../testing/step-fixtures';

const CORPUS = path.join(import.meta.dirname, 'classify-corpus');
const read = (name: string): string => fs.readFileSync(path.join(CORPUS, name), 'utf8');

function classify(output: string, context?: ClassifyContext, over: Partial<GateResult> = {}) {
  return classifyGateFailure(gate(output, over), parseFailures({ output }), undefined, context);
}

describe('a parsed test failure is never outranked by a side message', () => {
  it("husky's read-only .git in npm's prepare leaves the parsed failure in charge, and the retry prompt's hints are a test failure's", () => {
    const c = classify(read('husky-erofs-test-failure.txt'));
    expect(c.errorClass).toBe('test_failure');
    expect(c.hints.join('\n')).not.toMatch(/chmod|permission/i);
  });

  it('the same read-only line with no test parsed is still a permission error', () => {
    const out = read('husky-erofs-test-failure.txt').split('\n> hooks-demo@1.0.0 test')[0]!;
    expect(classify(out).errorClass).toBe('permission_error');
  });

  it('a failing test whose own message is the permission error is one', () => {
    const out = read('seed002-test-failures.txt').replace('Signal not emitted', "EACCES: permission denied, open '/etc/godot/config'");
    expect(classify(out)).toMatchObject({
      errorClass: 'permission_error',
      message: "❌ test_take_damage: EACCES: permission denied, open '/etc/godot/config'",
    });
  });
});

describe('the base commit (baseline) and the manifests decide whose a missing module is', () => {
  it('a failing test that already failed on the base commit is named as such', () => {
    const c = classify(read('seed002-test-failures.txt'), { baseline: { failingTests: ['test_take_damage'] } });
    expect(c).toMatchObject({
      errorClass: 'test_failure',
      message: '2 tests failed: test_player_health, test_take_damage (test_take_damage already failed on the base commit)',
    });
    expect(c.hints[0]).toMatch(/already failed on the base commit/);
  });

  it('missingNames reads what a base commit lacked, in the names the classifier compares', () => {
    expect(missingNames(read('python-declared-missing.txt'))).toEqual(['stripe']);
    expect(missingNames(read('node-declared-missing.txt'))).toEqual(['lodash']);
    expect(missingNames(read('node-declared-command-missing.txt'))).toEqual(['vitest']);
    expect(missingNames(read('go-own-package-missing.txt'))).toEqual(['github.com/acme/shop/money']);
    // A module of the project's own (a relative path) is never the base commit's missing dependency.
    expect(missingNames(read('node-local-missing.txt'))).toEqual([]);
    expect(missingNames(read('vitest-fail.txt'))).toEqual([]);
  });

  it("says how to install a declared dependency in the worktree's setup", () => {
    const manifest = (rel: string) => (rel === 'package.json' ? '{ "dependencies": { "lodash": "^4.17.21" } }' : null);
    const c = classify(read('node-declared-missing.txt'), { manifest });
    expect(c.errorClass).toBe('missing_dependency');
    expect(c.hints[0]).toBe(
      'Install the dependencies in the worktree\'s setup: setup: { run: "npm ci", network: [registry:npm] } in ratchet.yml; retrying the agent will not help.',
    );
  });

  it('an import the change added says what to do in the retry', () => {
    const c = classify(read('python-introduced-missing.txt'), {
      diff: read('python-introduced-missing.diff'),
      manifest: (rel) => (rel === 'pyproject.toml' ? '[project]\nname = "reports"\ndependencies = []\n' : null),
    });
    expect(c.errorClass).toBe('compilation_error');
    expect(c.hints[0]).toBe(
      "Your change imports 'textkit', which exists nowhere here: write it in the project, import something that exists, or declare it in pyproject.toml (the setup then installs it).",
    );
  });

  it('reads dependency names as the tools spell them: extras, versions, dashes and import names', () => {
    const pyproject = '[project]\nname = "x"\ndependencies = [\n  "PyYAML>=6",\n  "python-dateutil",\n  "requests[socks]==2.31",\n]\n';
    const out = (m: string) => `E   ModuleNotFoundError: No module named '${m}'\n`;
    for (const m of ['yaml', 'dateutil', 'requests']) {
      expect(classify(out(m), { manifest: (rel) => (rel === 'pyproject.toml' ? pyproject : null) }).message).toMatch(/declared in pyproject\.toml/);
    }
    expect(classify(out('numpy'), { manifest: (rel) => (rel === 'requirements.txt' ? 'numpy==2.0 # pinned\n' : null) }).message).toMatch(
      /declared in requirements\.txt/,
    );
    expect(classify(out('flask'), { manifest: (rel) => (rel === 'pyproject.toml' ? pyproject : null) }).message).toBe("No module named 'flask'");
  });
});

describe('network refusals, TLS and registry errors', () => {
  it("during setup the line to add is setup.network's, and a registry can be named by its ecosystem", () => {
    const c = classify(read('net-refused-npm.txt'), { phase: 'setup' });
    expect(c).toMatchObject({
      errorClass: 'environment',
      message:
        "The sandbox refused npm's connection to npm.corp.example during setup: add it to setup.network in ratchet.yml (setup: { network: [npm.corp.example] })",
    });
    expect(c.hints[0]).toBe(
      'If npm.corp.example is the registry npm is configured with, registry:npm names it without its host (setup: { network: [registry:npm] }).',
    );
  });

  it('a gate that installs from a registry is told to install in setup instead', () => {
    const c = classify(read('net-refused-pip.txt'));
    expect(c.hints[0]).toBe('Gates need no registry when setup installs the dependencies: setup: { run: "…", network: [registry:pypi] } in ratchet.yml.');
  });

  it('a TLS failure says which certificate variable to set', () => {
    expect(classify(read('tls-self-signed-npm.txt')).hints[0]).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(classify(read('tls-verify-failed-pip.txt')).hints[0]).toMatch(/PIP_CERT/);
    expect(classify(read('tls-local-issuer-curl.txt'), undefined, { command: 'curl -sS https://localhost:8742/x' }).hints[0]).toMatch(/CURL_CA_BUNDLE/);
  });

  it("an npm failure no pattern names is headlined by npm's own error, never by its log file line", () => {
    const c = classify(read('npm-ci-no-lockfile.txt'));
    expect(c.errorClass).toBe('unknown');
    expect(c.message).toBe(
      'npm failed (EUSAGE): The `npm ci` command can only install with an existing package-lock.json or npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or later to generate a package-lock.json file, then try again.',
    );
  });

  it("a project that needs another Node is the environment's", () => {
    expect(classify(read('npm-ebadengine.txt'))).toMatchObject({
      errorClass: 'environment',
      message: 'npm: the project requires {"node":"<10"}, the gate has {"node":"v20.20.2","npm":"11.19.1"} (EBADENGINE)',
    });
  });
});

describe("a refusal outside Ratchet's sandbox", () => {
  it("a CONNECT refused while not sandboxed (network null) is a proxy of the user's, not the sandbox", () => {
    const c = classify(read('net-refused-cargo.txt'), { network: null });
    expect(c).toMatchObject({ errorClass: 'environment', message: "Network: a proxy refused cargo's connection to cargo.corp.example (403)" });
    // The sandbox's own wording is the sandbox's whatever the context says.
    expect(classify(read('net-refused-npm.txt'), { network: null }).message).toMatch(/^The sandbox refused npm's connection/);
  });
});
