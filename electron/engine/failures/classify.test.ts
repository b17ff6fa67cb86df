// Tests for classifyGateFailure: a table over real tool output in classify-corpus/, user rules, API text, the built-in hints, ordering and edge cases.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES } from '../../../shared/domain';
import type { ErrorClass } from '../../../shared/domain';
import { parseFailures } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { fingerprint } from './fingerprint';
import { failedGate } from '../testing/step-fixtures';
import type { BaselineFacts } from './classify-context';
import { classifyGateFailure, FALLBACK_HINT, MISMATCH_HINT, NULL_REFERENCE_HINT, retryAfterFromText, SIGNAL_HINT, TEST_TIMEOUT_HINT } from './classify';

const CORPUS = path.join(import.meta.dirname, 'classify-corpus');
const read = (name: string): string => fs.readFileSync(path.join(CORPUS, name), 'utf8');
// The projects the corpus was recorded from (scripts/record-corpus/record-classify.sh): their manifests are what the
// gate's worktree held. A changed project's files are its base with the change laid over it.
const PROJECTS = path.join(import.meta.dirname, '../../../scripts/record-corpus/projects');
function projectFiles(project: string): (rel: string) => string | null {
  return (rel) => {
    for (const dir of ['change', 'base', '.']) {
      const file = path.join(PROJECTS, project, dir, rel);
      if (fs.existsSync(file) && fs.statSync(file).isFile()) return fs.readFileSync(file, 'utf8');
    }
    return null;
  };
}

const gateResult = (over: Partial<GateResult>): GateResult => failedGate(over.output ?? '', { durationMs: 1234, ...over });

function classify(over: Partial<GateResult>) {
  const r = gateResult(over);
  return classifyGateFailure(r, parseFailures({ output: r.output, reportXml: r.reportXml }));
}

interface Row {
  file: string;
  exitCode: number | null;
  signal?: string;
  timedOut?: boolean;
  report?: string;
  errorClass: ErrorClass;
  message: string;
  /** The gate's command, when the output does not name what it reached. */
  command?: string;
  /** What the classifier is told beside the output: the recorded project's manifests, the attempt's diff (a file of the corpus), the base commit's failures, the gate's network list. */
  project?: string;
  diff?: string;
  baseline?: BaselineFacts;
  network?: string[];
}

// Exit codes and signals are the ones the real runs produced (tsc exits 2, cargo 101, bash 126/127/139).
const TABLE: Row[] = [
  {
    file: 'tsc.txt',
    exitCode: 2,
    errorClass: 'compilation_error',
    message: "TS2307: Cannot find module './format' or its corresponding type declarations. (src/index.ts:2) and 2 more errors",
  },
  { file: 'node-test-tap.txt', exitCode: 1, errorClass: 'test_failure', message: '3 tests failed: adds numbers, subtracts, top level fails' },
  { file: 'vitest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: adds numbers, parses a list' },
  { file: 'vitest-fail.txt', exitCode: 1, report: 'junit-report.xml', errorClass: 'test_failure', message: '2 tests failed: adds numbers, parses a list' },
  { file: 'jest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: adds item totals, applies a discount code' },
  { file: 'pytest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '3 tests failed: test_add, test_div, test_join' },
  { file: 'pytest-fail.txt', exitCode: 1, report: 'pytest-report.xml', errorClass: 'test_failure', message: '3 tests failed: test_add, test_div, test_join' },
  { file: 'go-test-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: TestAdd, TestParseList/with_spaces' },
  { file: 'go-build-fail.txt', exitCode: 1, errorClass: 'compilation_error', message: 'undefined: strconv.Itoaa (./math.go:12) and 1 more error' },
  { file: 'cargo-test-fail.txt', exitCode: 101, errorClass: 'test_failure', message: '2 tests failed: parses_list, adds_numbers' },
  { file: 'cargo-build-fail.txt', exitCode: 101, errorClass: 'compilation_error', message: 'E0308: mismatched types (src/lib.rs:2)' },
  { file: 'gcc-error.txt', exitCode: 1, errorClass: 'compilation_error', message: 'expected ‘;’ before ‘}’ token (broken.c:4) and 1 more error' },
  { file: 'python-syntax.txt', exitCode: 1, errorClass: 'compilation_error', message: "SyntaxError: expected ':' (/home/dev/pyapp/main.py:5)" },
  { file: 'js-syntax.txt', exitCode: 1, errorClass: 'compilation_error', message: 'SyntaxError: missing ) after argument list (/home/dev/jsapp/server.js:4)' },
  { file: 'python-missing-module.txt', exitCode: 2, errorClass: 'missing_dependency', message: "No module named 'stripe'" },
  { file: 'node-missing-module.txt', exitCode: 1, errorClass: 'missing_dependency', message: "Cannot find module 'express'" },
  { file: 'cmd-not-found.txt', exitCode: 127, errorClass: 'missing_dependency', message: '`pnpm` is not installed or not on PATH (command not found)' },
  { file: 'permission-denied.txt', exitCode: 126, errorClass: 'permission_error', message: '/usr/bin/bash: line 1: ./check.sh: Permission denied' },
  { file: 'segfault.txt', exitCode: 139, errorClass: 'crash', message: 'Exit code 139 (SIGSEGV): /usr/bin/bash: line 1: 11455 Segmentation fault ./crash' },
  {
    file: 'node-oom.txt',
    exitCode: null,
    signal: 'SIGABRT',
    errorClass: 'resource_exhaustion',
    message: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
  },
  { file: 'timeout-hang.txt', exitCode: null, signal: 'SIGTERM', timedOut: true, errorClass: 'timeout', message: 'Timed out after 1.2 s: npm test' },
  // `diff want.conf got.conf`: no known format, so the last line is all there is to say.
  { file: 'diff-mismatch.txt', exitCode: 1, errorClass: 'unknown', message: 'Failed with exit code 1: > port = 8080' },
  // Lint errors are the agent's to fix, like a compiler's.
  {
    file: 'eslint.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: "'unused' is assigned a value but never used (no-unused-vars) (/home/dev/calc-vitest/src/legacy.js:3) and 2 more errors",
  },
  // Structured reports and streams: the JSON reporters of the vitest and jest runs above, and go test -json.
  { file: 'vitest-fail.txt', exitCode: 1, report: 'vitest-report.json', errorClass: 'test_failure', message: '2 tests failed: adds numbers, parses a list' },
  {
    file: 'jest-fail.txt',
    exitCode: 1,
    report: 'jest-report.json',
    errorClass: 'test_failure',
    message: '2 tests failed: adds item totals, applies a discount code',
  },
  { file: 'go-test-json.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: TestAdd, TestParseList/with_spaces' },
  // Godot and GUT
  { file: 'gut-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: test_player_health, test_take_damage' },
  {
    file: 'godot-parse-error.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: 'Parse Error: Expected closing ")" after call arguments. (res://scripts/player.gd:42) and 2 more errors',
  },
  {
    file: 'godot-invalid-index.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: "Invalid get index 'helth' (on base: 'Player'). (res://scripts/player.gd:23)",
  },
  {
    file: 'godot-crash.txt',
    exitCode: null,
    signal: 'SIGABRT',
    errorClass: 'crash',
    message: 'Killed by SIGABRT: handle_crash: Program crashed with signal 11',
  },
  {
    file: 'godot-export-template.txt',
    exitCode: 1,
    errorClass: 'missing_dependency',
    message: 'No export template found at the expected path: /root/.local/share/godot/export_templates/4.2.2.stable/linux_release.x86_64',
  },
  {
    file: 'godot-missing-addon.txt',
    exitCode: 1,
    errorClass: 'missing_dependency',
    message: "Godot addon 'ExamplePlugin' is not installed (Cannot find addon 'ExamplePlugin')",
  },
  {
    file: 'godot-missing-shared-lib.txt',
    exitCode: 127,
    errorClass: 'missing_dependency',
    message: 'Shared library libfontconfig.so.1 is not installed (cannot open shared object file)',
  },
  // Git
  {
    file: 'git-merge-conflict.txt',
    exitCode: 1,
    errorClass: 'git_conflict',
    message: 'CONFLICT (content): Merge conflict in scripts/player.gd and 1 more conflict',
  },
  {
    file: 'git-rebase-conflict.txt',
    exitCode: 1,
    errorClass: 'git_conflict',
    message:
      'CONFLICT (modify/delete): scripts/enemy.gd deleted in HEAD and modified in 3f2a1c9 (Add enemy AI). Version 3f2a1c9 (Add enemy AI) of scripts/enemy.gd left in tree.',
  },
  // Shells and the system (make turns dash's 127 into its own exit 2)
  { file: 'make-sh-not-found.txt', exitCode: 2, errorClass: 'missing_dependency', message: '`godot` is not installed or not on PATH (command not found)' },
  {
    file: 'read-only-fs.txt',
    exitCode: 226,
    errorClass: 'permission_error',
    message: "npm ERR! rofs EROFS: read-only file system, open '/home/dev/shop/node_modules/.package-lock.json'",
  },
  {
    file: 'operation-not-permitted.txt',
    exitCode: 1,
    errorClass: 'permission_error',
    message: "chmod: changing permissions of 'export/run.sh': Operation not permitted",
  },
  { file: 'disk-full.txt', exitCode: 1, errorClass: 'resource_exhaustion', message: "cp: error writing 'build/linux/dungeon.pck': No space left on device" },
  { file: 'fork-enomem.txt', exitCode: 1, errorClass: 'resource_exhaustion', message: '/usr/bin/bash: fork: Cannot allocate memory' },
  // API text from CLI agents and HTTP clients
  {
    file: 'claude-cli-rate-limit.txt',
    exitCode: 1,
    errorClass: 'rate_limit',
    message:
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (4f1c2d6e-1b7a-4a8e-9d55-2a8f0c3b9e11) of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the re…',
  },
  {
    file: 'api-429-curl.txt',
    exitCode: 22,
    errorClass: 'rate_limit',
    message:
      '{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please try again later or contact sales at https://www.anthropic.com/contact-sales to di…',
  },
  {
    file: 'claude-cli-overloaded.txt',
    exitCode: 1,
    errorClass: 'api_error',
    message: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}',
  },
  {
    file: 'api-econnreset.txt',
    exitCode: 1,
    errorClass: 'api_error',
    message: 'FetchError: request to https://api.openai.com/v1/chat/completions failed, reason: read ECONNRESET',
  },
  // Languages' own ways of saying a dependency is missing or wrong
  {
    file: 'python-import-name.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: "ImportError: cannot import name 'Player' from 'app.models' (/home/dev/pyapp/app/models.py)",
  },
  {
    file: 'python-import-version.txt',
    exitCode: 1,
    errorClass: 'missing_dependency',
    message: "cannot import name 'field_validator' from 'pydantic': the installed pydantic does not provide it",
  },
  {
    file: 'go-missing-package.txt',
    exitCode: 1,
    errorClass: 'missing_dependency',
    message: 'Missing package github.com/gorilla/mux: no required module provides package github.com/gorilla/mux',
  },
  { file: 'npm-missing-script.txt', exitCode: 1, errorClass: 'missing_dependency', message: 'package.json has no "test" script' },
  {
    file: 'cargo-openssl-missing.txt',
    exitCode: 101,
    errorClass: 'missing_dependency',
    message:
      'Build script of openssl-sys v0.9.103 is missing a system dependency: Could not find directory of OpenSSL installation, and this `-sys` crate cannot',
  },
  // Sample outputs of a Godot project, one per error class (the seed002-* files).
  { file: 'seed002-test-failures.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: test_player_health, test_take_damage' },
  { file: 'seed002-compile.txt', exitCode: 1, errorClass: 'compilation_error', message: "Parse Error: Expected ')' on line 42 and 1 more error" },
  { file: 'seed002-crash.txt', exitCode: 1, errorClass: 'crash', message: 'Exit code 1: Godot crashed with signal 11 (SIGSEGV)' },
  { file: 'seed002-timeout.txt', exitCode: 1, errorClass: 'timeout', message: 'Test exceeded 300s timeout' },
  {
    file: 'seed002-missing.txt',
    exitCode: 1,
    errorClass: 'missing_dependency',
    message: "Godot addon 'ExamplePlugin' is not installed (Cannot find addon 'ExamplePlugin')",
  },
  { file: 'seed002-permission.txt', exitCode: 1, errorClass: 'permission_error', message: 'Permission denied: /etc/godot/config' },
  { file: 'seed002-conflict.txt', exitCode: 1, errorClass: 'git_conflict', message: 'CONFLICT (content): Merge conflict in player.gd' },
  { file: 'seed002-rate-limit.txt', exitCode: 1, errorClass: 'rate_limit', message: 'HTTP 429: Too Many Requests' },
  { file: 'seed002-out-of-memory.txt', exitCode: 1, errorClass: 'resource_exhaustion', message: 'Out of memory' },
  { file: 'seed002-disk-full.txt', exitCode: 1, errorClass: 'resource_exhaustion', message: 'Disk full' },
  // Environment or code: a module the project itself lacks is the code's, a
  // dependency declared but not installed is the environment's, an import the attempt's own change added is the code's.
  {
    file: 'node-local-missing.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: "Cannot find module './src/health' (/tmp/rc/cls-node-local/index.js:1): no such file in the project",
  },
  {
    file: 'node-declared-missing.txt',
    exitCode: 1,
    project: 'cls-node-declared',
    errorClass: 'missing_dependency',
    message: "'lodash' is declared in package.json but not installed in the worktree (Cannot find module 'lodash')",
  },
  { file: 'node-declared-missing.txt', exitCode: 1, errorClass: 'missing_dependency', message: "Cannot find module 'lodash'" },
  {
    file: 'node-introduced-missing.txt',
    exitCode: 1,
    project: 'cls-node-introduced',
    diff: 'node-introduced-missing.diff',
    errorClass: 'compilation_error',
    message:
      "The attempt's change imports 'left-pad' (/tmp/rc/cls-node-introduced/index.js:1), which is not installed and not declared in package.json (Cannot find module 'left-pad')",
  },
  {
    file: 'node-introduced-missing.txt',
    exitCode: 1,
    project: 'cls-node-introduced',
    errorClass: 'missing_dependency',
    message: "Cannot find module 'left-pad'",
  },
  // node --test prints the import error beside a failure that stands for the whole file ("test failed").
  {
    file: 'node-test-introduced-missing.txt',
    exitCode: 1,
    project: 'cls-node-esm-introduced',
    diff: 'node-test-introduced-missing.diff',
    errorClass: 'compilation_error',
    message:
      "The attempt's change imports 'left-pad' (/tmp/rc/cls-node-esm-introduced/src/label.mjs), which is not installed and not declared in package.json (Cannot find module 'left-pad')",
  },
  {
    file: 'node-test-introduced-missing.txt',
    exitCode: 1,
    project: 'cls-node-esm-introduced',
    errorClass: 'missing_dependency',
    message: "Cannot find module 'left-pad'",
  },
  {
    file: 'node-declared-command-missing.txt',
    exitCode: 127,
    project: 'cls-node-declared-bin',
    errorClass: 'missing_dependency',
    message: '`vitest` is declared in package.json but not installed in the worktree (command not found)',
  },
  {
    file: 'node-declared-command-missing.txt',
    exitCode: 127,
    baseline: { missing: ['vitest'] },
    errorClass: 'missing_dependency',
    message: 'The base commit fails the same way: `vitest` is not installed or not on PATH (command not found)',
  },
  {
    file: 'python-declared-missing.txt',
    exitCode: 2,
    project: 'cls-py-declared',
    errorClass: 'missing_dependency',
    message: "'stripe' is declared in pyproject.toml but not installed in the worktree (No module named 'stripe')",
  },
  {
    file: 'python-declared-missing.txt',
    exitCode: 2,
    baseline: { missing: ['stripe'] },
    errorClass: 'missing_dependency',
    message: "The base commit fails the same way: No module named 'stripe'",
  },
  // Without the manifest or the base commit's run, a test importing a module nobody has is taken for a module not written yet.
  {
    file: 'python-declared-missing.txt',
    exitCode: 2,
    errorClass: 'compilation_error',
    message: "tests/test_pay.py:1 imports 'stripe', which does not exist yet (No module named 'stripe')",
  },
  {
    file: 'python-introduced-missing.txt',
    exitCode: 2,
    project: 'cls-py-introduced',
    diff: 'python-introduced-missing.diff',
    errorClass: 'compilation_error',
    message: "The attempt's change imports 'textkit' (app/report.py:1), which is not installed and not declared in pyproject.toml (No module named 'textkit')",
  },
  { file: 'python-introduced-missing.txt', exitCode: 2, project: 'cls-py-introduced', errorClass: 'missing_dependency', message: "No module named 'textkit'" },
  {
    file: 'go-own-package-missing.txt',
    exitCode: 1,
    project: 'cls-go-own',
    errorClass: 'compilation_error',
    message:
      'Package github.com/acme/shop/money of this module does not exist yet (main.go:6): cannot find module providing package github.com/acme/shop/money',
  },
  {
    file: 'go-own-package-missing.txt',
    exitCode: 1,
    diff: 'go-own-package-missing.diff',
    errorClass: 'compilation_error',
    message:
      "The attempt's change imports 'github.com/acme/shop/money' (main.go:6), which is not installed (cannot find module providing package github.com/acme/shop/money)",
  },
  // Network refusals by Ratchet's own sandbox proxy, named by host with the line that lets it through.
  {
    file: 'net-refused-npm.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: "The sandbox refused npm's connection to npm.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [npm.corp.example] })",
  },
  {
    file: 'net-refused-pip.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: "The sandbox refused pip's connection to pypi.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [pypi.corp.example] })",
  },
  {
    file: 'net-refused-go.txt',
    exitCode: 1,
    errorClass: 'environment',
    message:
      "The sandbox refused go's connection to goproxy.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [goproxy.corp.example] })",
  },
  {
    file: 'net-refused-cargo.txt',
    exitCode: 101,
    errorClass: 'environment',
    message:
      "The sandbox refused cargo's connection to cargo.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [cargo.corp.example] })",
  },
  {
    file: 'net-refused-curl.txt',
    exitCode: 56,
    command: 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json',
    errorClass: 'environment',
    message:
      "The sandbox refused curl's connection to downloads.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [downloads.corp.example] })",
  },
  {
    file: 'net-refused-curl-http.txt',
    exitCode: 22,
    command: 'curl -sSf http://downloads.corp.example/fixtures/players.json -o players.json',
    network: [],
    errorClass: 'environment',
    message:
      "The sandbox refused curl's connection to downloads.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [downloads.corp.example] })",
  },
  // pnpm through corepack, not in its cache: corepack's download is refused, but pnpm is what is missing (issue 29, 6).
  {
    file: 'toolchain-corepack-download-noproxy.txt',
    exitCode: 1,
    network: [],
    command: 'pnpm test',
    errorClass: 'missing_dependency',
    message: 'pnpm 9.15.9 is not installed where corepack keeps it (corepack tried to download it)',
  },
  {
    file: 'toolchain-corepack-metadata-noproxy.txt',
    exitCode: 1,
    network: [],
    command: 'pnpm test',
    errorClass: 'missing_dependency',
    message: 'pnpm 9.15.9 is not installed where corepack keeps it (corepack tried to download it)',
  },
  // With corepack's cache given read-only, a version not in it cannot even get a download folder there.
  {
    file: 'toolchain-corepack-erofs.txt',
    exitCode: 1,
    command: 'pnpm test',
    errorClass: 'missing_dependency',
    message: "the package manager package.json's packageManager names is not installed where corepack keeps it (corepack tried to download it)",
  },
  // A command that may reach no host runs without the proxy's relays: the client is refused at the sandbox's proxy port.
  {
    file: 'net-noproxy-npm.txt',
    exitCode: 1,
    network: [],
    errorClass: 'environment',
    message: "The sandbox refused npm's connection to npm.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [npm.corp.example] })",
  },
  {
    file: 'net-noproxy-pip.txt',
    exitCode: 1,
    network: [],
    errorClass: 'environment',
    message: "The sandbox refused pip's connection to pypi.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [pypi.corp.example] })",
  },
  {
    file: 'net-noproxy-go.txt',
    exitCode: 1,
    network: [],
    errorClass: 'environment',
    message:
      "The sandbox refused go's connection to goproxy.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [goproxy.corp.example] })",
  },
  {
    file: 'net-noproxy-cargo.txt',
    exitCode: 101,
    network: [],
    errorClass: 'environment',
    message:
      "The sandbox refused cargo's connection to cargo.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [cargo.corp.example] })",
  },
  {
    file: 'net-noproxy-curl.txt',
    exitCode: 7,
    command: 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json',
    network: [],
    errorClass: 'environment',
    message:
      "The sandbox refused curl's connection to downloads.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [downloads.corp.example] })",
  },
  {
    file: 'net-noproxy-curl-http.txt',
    exitCode: 7,
    command: 'curl -sSf http://downloads.corp.example/fixtures/players.json -o players.json',
    network: [],
    errorClass: 'environment',
    message:
      "The sandbox refused curl's connection to downloads.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [downloads.corp.example] })",
  },
  {
    file: 'net-noproxy-git.txt',
    exitCode: 128,
    command: 'git clone https://git.corp.example/acme/fixtures.git',
    network: [],
    errorClass: 'environment',
    message: "The sandbox refused git's connection to git.corp.example: add it to sandbox.network in ratchet.yml (sandbox: { network: [git.corp.example] })",
  },
  // Unknown whether it ran sandboxed: a refused local port is only that.
  {
    file: 'net-noproxy-curl.txt',
    exitCode: 7,
    command: 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json',
    errorClass: 'environment',
    message: 'Network: curl could not connect to localhost:3128 (ECONNREFUSED)',
  },
  // husky's "Read-only file system" in npm's prepare is a side message: the parsed test failure is what failed.
  { file: 'husky-erofs-test-failure.txt', exitCode: 1, errorClass: 'test_failure', message: '1 test failed: player starts with full health' },
  // DNS, a refused connection, TLS and the registry: the environment's, headlined by the cause, never by npm's log line.
  { file: 'net-enotfound-npm.txt', exitCode: 1, errorClass: 'environment', message: 'Network: npm could not resolve npm.corp.example (ENOTFOUND)' },
  { file: 'net-econnrefused-npm.txt', exitCode: 1, errorClass: 'environment', message: 'Network: npm could not connect to 127.0.0.1:9 (ECONNREFUSED)' },
  { file: 'net-dns-pip.txt', exitCode: 1, errorClass: 'environment', message: 'Network: pip could not resolve pypi.corp.example (Name or service not known)' },
  {
    file: 'net-dns-curl.txt',
    exitCode: 6,
    command: 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json',
    errorClass: 'environment',
    message: 'Network: curl could not resolve downloads.corp.example (Could not resolve host)',
  },
  {
    file: 'tls-self-signed-npm.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: 'TLS: npm does not trust the certificate of localhost:8741 (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain)',
  },
  {
    file: 'tls-verify-failed-pip.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: 'TLS: pip does not trust the certificate of localhost:8741 (CERTIFICATE_VERIFY_FAILED: self-signed certificate in certificate chain)',
  },
  {
    file: 'tls-local-issuer-curl.txt',
    exitCode: 60,
    command: 'curl -sS https://localhost:8742/fixtures/players.json -o players.json',
    errorClass: 'environment',
    message: 'TLS: curl does not trust the certificate of localhost:8742 (unable to get local issuer certificate)',
  },
  {
    file: 'registry-e404-npm.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: 'The npm registry at 127.0.0.1:8743 has no left-pad@^1.3.0 (E404 Not Found)',
  },
  {
    file: 'registry-e503-npm.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: 'The npm registry at 127.0.0.1:8745 failed: 503 Service Unavailable (E503)',
  },
  {
    file: 'npm-no-package-json.txt',
    exitCode: 254,
    errorClass: 'environment',
    message: "npm found no package.json in /tmp/rc/cls-empty: the gate's command does not fit this repository",
  },
  {
    file: 'npm-ejsonparse.txt',
    exitCode: 1,
    errorClass: 'compilation_error',
    message: 'package.json is not valid JSON: Expected double-quoted property name in JSON at position 84 (EJSONPARSE)',
  },
  {
    file: 'npm-ebadengine.txt',
    exitCode: 1,
    errorClass: 'environment',
    message: 'npm: the project requires {"node":"<10"}, the gate has {"node":"v20.20.2","npm":"11.19.1"} (EBADENGINE)',
  },
  {
    file: 'npm-ci-no-lockfile.txt',
    exitCode: 1,
    errorClass: 'unknown',
    message:
      'npm failed (EUSAGE): The `npm ci` command can only install with an existing package-lock.json or npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or later to generate a package-lock.json file, then try again.',
  },
];

describe('failing tests a report file did not name', () => {
  it("are named from the output by the gates' own parsers (the classifier keeps no copies of them)", () => {
    for (const [file, names] of [
      ['cargo-test-fail.txt', 'parses_list, adds_numbers'],
      ['go-test-fail.txt', 'TestAdd, TestParseList/with_spaces'],
    ] as const) {
      const r = gateResult({ output: read(file), exitCode: 1 });
      // A report that names no failing test: the parsed failures are empty, the output still says which tests failed.
      const c = classifyGateFailure(r, []);
      expect(c.errorClass).toBe('test_failure');
      expect(c.message).toBe(`2 tests failed: ${names}`);
    }
  });
});

describe('classifyGateFailure on the corpus', () => {
  const label = (row: Row): string =>
    [row.file, row.report, row.project && `project ${row.project}`, row.diff && 'its diff', row.baseline && 'the baseline', row.network && 'the network list']
      .filter(Boolean)
      .join(' + ');
  it.each(TABLE.map((row) => [label(row), row] as const))('%s', (_label, row) => {
    const r = gateResult({
      output: read(row.file),
      reportXml: row.report ? read(row.report) : null,
      exitCode: row.exitCode,
      signal: row.signal ?? null,
      timedOut: row.timedOut ?? false,
      ...(row.command ? { command: row.command } : {}),
    });
    const c = classifyGateFailure(r, parseFailures({ output: r.output, reportXml: r.reportXml }), undefined, {
      manifest: row.project ? projectFiles(row.project) : undefined,
      diff: row.diff ? read(row.diff) : undefined,
      baseline: row.baseline,
      network: row.network,
    });
    expect(c.errorClass).toBe(row.errorClass);
    expect(c.message).toBe(row.message);
    expect(c.hints.length).toBeGreaterThan(0);
  });

  it('covers every fixture file in the corpus', () => {
    const used = new Set(TABLE.flatMap((r) => [r.file, r.report, r.diff].filter(Boolean)));
    expect(fs.readdirSync(CORPUS).filter((f) => !used.has(f))).toEqual([]);
  });
});

describe('classifyGateFailure ordering and edge cases', () => {
  it('a timeout wins over failures visible in the partial output', () => {
    const c = classify({ timedOut: true, exitCode: null, signal: 'SIGTERM', output: read('node-test-tap.txt'), durationMs: 30000 });
    expect(c.errorClass).toBe('timeout');
    expect(c.message).toBe('Timed out after 30.0 s: npm test');
  });

  it('a spawn error is a missing dependency', () => {
    const c = classify({ exitCode: null, spawnError: 'spawn /bin/sh ENOENT' });
    expect(c).toMatchObject({ errorClass: 'missing_dependency', message: 'Could not start the gate command: spawn /bin/sh ENOENT' });
    expect(c.hints).toContain('Install the missing package or fix the import; retrying the agent will not help.');
  });

  it('recognises dash\'s "not found" and a bare exit 127', () => {
    expect(classify({ exitCode: 127, output: 'sh: 1: pytest: not found\n' })).toMatchObject({
      errorClass: 'missing_dependency',
      message: '`pytest` is not installed or not on PATH (command not found)',
    });
    expect(classify({ exitCode: 127, output: '' }).errorClass).toBe('missing_dependency');
  });

  it('a missing package in tsc output is a missing dependency, a missing relative file is a compile error', () => {
    const pkg = "src/a.ts(1,20): error TS2307: Cannot find module 'lodash' or its corresponding type declarations.\n";
    expect(classify({ exitCode: 2, output: pkg })).toMatchObject({ errorClass: 'missing_dependency', message: "Cannot find module 'lodash'" });
    const rel = "src/a.ts(1,20): error TS2307: Cannot find module './lodash' or its corresponding type declarations.\n";
    expect(classify({ exitCode: 2, output: rel }).errorClass).toBe('compilation_error');
  });

  it('reads tsc --pretty locations', () => {
    const out =
      "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n3 const x: number = 'a';\n        ~\n\n\nFound 1 error in src/a.ts:3\n";
    expect(classify({ exitCode: 2, output: out })).toMatchObject({
      errorClass: 'compilation_error',
      message: "TS2322: Type 'string' is not assignable to type 'number'. (src/a.ts:3)",
    });
  });

  it('a relative "Cannot find module" inside failing tests stays a test failure', () => {
    const out =
      "FAIL src/a.test.js\n  ● Test suite failed to run\n\n    Cannot find module './missing' from 'src/a.test.js'\n\nTests:       1 failed, 1 total\n";
    expect(classify({ output: out }).errorClass).toBe('test_failure');
  });

  it('EACCES is a permission error', () => {
    const out = "Error: EACCES: permission denied, open '/repo/dist/out.js'\n";
    expect(classify({ output: out })).toMatchObject({ errorClass: 'permission_error', message: "Error: EACCES: permission denied, open '/repo/dist/out.js'" });
  });

  it('exit 137 is a crash, or resource exhaustion when memory ran out', () => {
    expect(classify({ exitCode: 137, output: 'Killed\n' })).toMatchObject({ errorClass: 'crash', message: 'Exit code 137 (SIGKILL): Killed' });
    expect(classify({ exitCode: null, signal: 'SIGKILL', output: 'running…\n' })).toMatchObject({ errorClass: 'crash', message: 'Killed by SIGKILL' });
    expect(classify({ exitCode: 137, output: 'worker exited: out of memory (oom-kill)\n' }).errorClass).toBe('resource_exhaustion');
    expect(classify({ exitCode: 1, output: 'Error: ENOSPC: no space left on device, write\n' }).errorClass).toBe('resource_exhaustion');
    // Out-of-memory wording in an ordinary failure is only a test talking about memory.
    expect(classify({ exitCode: 1, output: 'not ok 1 - reports out of memory to the user\n' }).errorClass).toBe('test_failure');
  });

  it('a core dump with an ordinary exit code is still a crash', () => {
    expect(classify({ exitCode: 1, output: 'Segmentation fault (core dumped)\n' }).errorClass).toBe('crash');
  });

  it('a JSON SyntaxError thrown inside a failing test is a test failure, not a compile error', () => {
    const out =
      ' FAIL  src/config.test.ts > config > loads\nSyntaxError: Unexpected token \'x\', "xyz" is not valid JSON\n ❯ src/config.ts:4:15\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n';
    expect(classify({ output: out })).toMatchObject({ errorClass: 'test_failure', message: '1 test failed: loads' });
  });

  it('an esbuild transform error (vitest, tsx) is a compile error', () => {
    const out = ' FAIL  src/a.test.ts [ src/a.test.ts ]\nError: Transform failed with 1 error:\n/repo/src/a.ts:3:10: ERROR: Expected ";" but found "x"\n';
    expect(classify({ output: out })).toMatchObject({
      errorClass: 'compilation_error',
      message: 'Expected ";" but found "x" (/repo/src/a.ts:3)',
    });
  });

  it('uses parsed failures, summarising long lists', () => {
    const failures = Array.from({ length: 8 }, (_, i) => ({
      name: `suite > case ${i + 1}`,
      message: null,
      expected: null,
      actual: null,
      file: null,
      line: null,
    }));
    const c = classifyGateFailure(gateResult({ output: 'whatever' }), failures);
    expect(c).toMatchObject({ errorClass: 'test_failure', message: '8 tests failed: case 1, case 2, case 3, case 4, case 5, and 3 more' });
  });

  it('never lists an empty name: "1 test failed", not "1 test failed: , and 1 more"', () => {
    expect(classify({ output: 'Tests:       1 failed, 3 passed, 4 total\n' }).message).toBe('1 test failed');
    const unnamed = [
      { name: '', message: 'boom', expected: null, actual: null, file: null, line: null },
      { name: 'adds', message: null, expected: null, actual: null, file: null, line: null },
    ];
    expect(classifyGateFailure(gateResult({ output: 'x' }), unnamed).message).toBe('2 tests failed: adds, and 1 more');
  });

  it('adds a hint about expected and actual values when there are some', () => {
    const c = classify({ output: read('node-test-tap.txt') });
    expect(c.hints[0]).toMatch(/expected and actual/);
  });

  it('keeps the message to one bounded line', () => {
    const c = classify({ exitCode: 3, output: `${'x'.repeat(1000)}\n` });
    expect(c.errorClass).toBe('unknown');
    expect(c.message).not.toContain('\n');
    expect(c.message.length).toBeLessThanOrEqual(300);
    expect(classify({ exitCode: 3, output: '' }).message).toBe('Failed with exit code 3 and no output');
  });

  it('says so when the gate passed', () => {
    expect(classify({ passed: true, exitCode: 0 }).message).toBe('The gate passed');
  });

  it('the corpus exercises every class this classifier can return', () => {
    const reachable: ErrorClass[] = [
      'timeout',
      'missing_dependency',
      'permission_error',
      'resource_exhaustion',
      'crash',
      'compilation_error',
      'test_failure',
      'unknown',
      'api_error',
      'rate_limit',
      'git_conflict',
      'environment',
    ];
    for (const cls of reachable) expect(ERROR_CLASSES).toContain(cls);
    expect(new Set(TABLE.map((r) => r.errorClass))).toEqual(new Set(reachable));
  });
});

describe('classifyGateFailure with user rules', () => {
  const rules = [
    { pattern: 'Parse Error', class: 'compilation_error' as const },
    { pattern: '^WARN deprecated', class: 'unknown' as const },
    { pattern: 'FLAKY: (\\w+)', class: 'test_failure' as const },
  ];

  it('the first matching rule wins over the built-in patterns, naming the rule and the matching line', () => {
    const c = classifyGateFailure(gateResult({ output: 'running\nMyTool Parse Error near token }\nKilled\n', exitCode: 137 }), [], rules);
    expect(c).toMatchObject({
      errorClass: 'compilation_error',
      message: 'matched your rule /Parse Error/ → compilation_error: MyTool Parse Error near token }',
    });
    expect(c.hints).toContain('Fix the compiler errors first: the tests cannot run until the code builds.');
  });

  it('tries rules in order and matches case-sensitively on the ANSI-stripped output', () => {
    const out = '\u001b[31mFLAKY: test_login\u001b[39m\nparse error (lower case)\n';
    expect(classifyGateFailure(gateResult({ output: out }), [], rules).message).toBe('matched your rule /FLAKY: (\\w+)/ → test_failure: FLAKY: test_login');
  });

  it('uses the multiline flag, so ^ anchors at any line', () => {
    const c = classifyGateFailure(gateResult({ output: 'npm notice\nWARN deprecated inflight@1.0.6\n' }), [], rules);
    expect(c.message).toBe('matched your rule /^WARN deprecated/ → unknown: WARN deprecated inflight@1.0.6');
    // Without a line start the anchored rule does not match, and the built-ins decide.
    expect(classifyGateFailure(gateResult({ output: 'x WARN deprecated\nnot ok 1 - a\n' }), [], rules).errorClass).toBe('test_failure');
  });

  it('falls through to the built-ins when no rule matches, and with no or empty rules', () => {
    const out = read('tsc.txt');
    const builtIn = classifyGateFailure(gateResult({ output: out, exitCode: 2 }), []);
    expect(classifyGateFailure(gateResult({ output: out, exitCode: 2 }), [], [{ pattern: 'nothing like this', class: 'crash' }])).toEqual(builtIn);
    expect(classifyGateFailure(gateResult({ output: out, exitCode: 2 }), [], [])).toEqual(builtIn);
  });

  it('applies before the timeout and the spawn-error checks', () => {
    const c = classifyGateFailure(
      gateResult({ output: 'waiting for Godot editor…\n', timedOut: true, exitCode: null }),
      [],
      [{ pattern: 'waiting for Godot', class: 'crash' }],
    );
    expect(c.errorClass).toBe('crash');
  });

  it('skips a rule with an invalid pattern or an unknown class instead of throwing', () => {
    const bad = [
      { pattern: '([', class: 'crash' as const },
      { pattern: 'Parse', class: 'not_a_class' as unknown as ErrorClass },
      { pattern: 'Parse', class: 'api_error' as const },
    ];
    expect(classifyGateFailure(gateResult({ output: 'Parse Error\n' }), [], bad).errorClass).toBe('api_error');
  });

  it('shows the first line of a match that starts on an empty line', () => {
    const c = classifyGateFailure(gateResult({ output: 'a\n\nb\n' }), [], [{ pattern: '^$', class: 'unknown' }]);
    expect(c.message).toBe('matched your rule /^$/ → unknown');
  });
});

describe('classifyGateFailure: API failures', () => {
  it('a test that talks about rate limits or the API is still a test failure', () => {
    expect(classify({ output: 'not ok 1 - retries after 429 Too Many Requests\n1..1\n' }).errorClass).toBe('test_failure');
    const out =
      " FAIL  src/agent.test.ts > maps overloaded_error to api_error\nAssertionError: expected 'rate_limit_error' to be 'overloaded_error'\n      Tests  1 failed (1)\n";
    expect(classify({ output: out }).errorClass).toBe('test_failure');
  });

  it('a bare Retry-After is a rate limit, but a 5xx with Retry-After is an API error', () => {
    expect(classify({ output: 'Retry-After: 120\n' })).toMatchObject({ errorClass: 'rate_limit', message: 'The API asked to retry later: Retry-After: 120' });
    expect(classify({ output: 'HTTP/1.1 503 Service Unavailable\nRetry-After: 5\n' })).toMatchObject({
      errorClass: 'api_error',
      message: 'HTTP/1.1 503 Service Unavailable',
    });
  });

  it('says how long to wait when the output gives a Retry-After', () => {
    const c = classify({ output: read('api-429-curl.txt'), exitCode: 22 });
    expect(c.hints[0]).toBe('The API asked to wait 30 s before retrying (Retry-After).');
    expect(classify({ output: read('claude-cli-rate-limit.txt') }).hints.some((h) => h.includes('asked to wait'))).toBe(false);
  });

  it('a connection reset or timeout is an API error only when an API is named', () => {
    expect(
      classify({
        output:
          'Error: connect ETIMEDOUT 160.79.104.10:443\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)\nPOST https://api.anthropic.com/v1/messages\n',
      }).errorClass,
    ).toBe('api_error');
    expect(classify({ output: 'Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:218:20)\n' }).errorClass).toBe('unknown');
  });

  it('recognises the API error wordings of CLI agents and HTTP clients', () => {
    expect(classify({ output: 'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}\n' }).errorClass).toBe(
      'api_error',
    );
    expect(classify({ output: 'API Error: Connection error.\n' }).errorClass).toBe('api_error');
    expect(classify({ output: 'requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://api.example.com/v1/run\n' }).errorClass).toBe(
      'api_error',
    );
    expect(classify({ output: 'Claude AI usage limit reached|1763812800\n' }).errorClass).toBe('rate_limit');
    expect(classify({ output: 'gh: API rate limit exceeded for user ID 1234567. (HTTP 403)\n' }).errorClass).toBe('rate_limit');
  });
});

describe('retryAfterFromText', () => {
  it.each([
    ['Retry-After: 3600', 3600],
    ['retry-after: 30\r\n', 30],
    ['Rate limited, retry after 30s', 30],
    ['please retry after 2 minutes', 120],
    ['Retry after 1.5 seconds', 1.5],
    ['retry-after-ms: 1500', 1.5],
    ['{"error":"slow down","retry_after": 12}', 12],
    ['Retry-After: 5\n…later…\nRetry-After: 60', 60],
  ])('%j → %d', (text, seconds) => {
    expect(retryAfterFromText(text)).toBe(seconds);
  });

  it('counts an HTTP-date from now, never below zero', () => {
    const now = Date.parse('Sat, 22 Nov 2025 10:14:02 GMT');
    expect(retryAfterFromText('Retry-After: Sat, 22 Nov 2025 10:15:32 GMT', now)).toBe(90);
    expect(retryAfterFromText('Retry-After: Sat, 22 Nov 2025 10:00:00 GMT', now)).toBe(0);
  });

  it('returns null when there is none, and never throws', () => {
    expect(retryAfterFromText('API Error: 529 overloaded · Retrying in 2 seconds…')).toBeNull();
    expect(retryAfterFromText('')).toBeNull();
    expect(retryAfterFromText(null as unknown as string)).toBeNull();
    expect(retryAfterFromText('Retry-After: soon')).toBeNull();
  });
});

describe('classifyGateFailure: more built-in patterns', () => {
  it('Godot: a null instance is a compile-time style error with the null-reference hint', () => {
    const out = "SCRIPT ERROR: Invalid get index 'position' (on base: 'null instance').\n          at: Enemy._physics_process (res://scripts/enemy.gd:31)\n";
    const c = classify({ output: out });
    expect(c).toMatchObject({
      errorClass: 'compilation_error',
      message: "Invalid get index 'position' (on base: 'null instance'). (res://scripts/enemy.gd:31)",
    });
    expect(c.hints).toContain(NULL_REFERENCE_HINT);
  });

  it('Godot 3 puts the function before the message and "At:" after it', () => {
    const out = "SCRIPT ERROR: GDScript::reload: Parse Error: Expected ')' in expression\n   At: res://player.gd:42.\n";
    expect(classify({ output: out }).message).toBe("Parse Error: Expected ')' in expression (res://player.gd:42)");
  });

  it("seed 002's Godot crash wording is a crash whatever the exit code", () => {
    expect(classify({ exitCode: 1, output: 'Godot crashed with signal 11 (SIGSEGV)\nStack trace: [...]\n' })).toMatchObject({
      errorClass: 'crash',
      message: 'Exit code 1: Godot crashed with signal 11 (SIGSEGV)',
    });
  });

  it('git: "could not apply" and "Automatic merge failed" on their own are conflicts', () => {
    expect(classify({ output: 'error: could not apply 9a1b2c3... Tune jump height\n' }).errorClass).toBe('git_conflict');
    expect(classify({ output: 'Automatic merge failed; fix conflicts and then commit the result.\n' }).errorClass).toBe('git_conflict');
  });

  it('a read-only file system or EPERM is a permission error, a test about one is not', () => {
    expect(classify({ output: "OSError: [Errno 30] Read-only file system: '/app/save.dat'\n" }).errorClass).toBe('permission_error');
    expect(classify({ output: "Error: EPERM: operation not permitted, unlink 'C:\\game\\build\\game.pck'\n" }).errorClass).toBe('permission_error');
    expect(classify({ output: 'not ok 1 - refuses to save on a read-only file system\n1..1\n' }).errorClass).toBe('test_failure');
  });

  it('cargo: a missing linker is a missing dependency', () => {
    const out =
      'error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `calc-rs` (lib) due to 1 previous error\n';
    expect(classify({ exitCode: 101, output: out })).toMatchObject({
      errorClass: 'missing_dependency',
      message: 'The linker `cc` is not installed (linker `cc` not found)',
    });
  });

  it('npm 6 and pnpm missing scripts', () => {
    expect(classify({ output: 'npm ERR! missing script: lint\n' }).message).toBe('package.json has no "lint" script');
    expect(classify({ output: ' ERR_PNPM_NO_SCRIPT  Missing script: test\n' }).message).toBe('package.json has no "test" script');
  });

  it('reads build errors out of a go test -json stream (Go 1.24 build-output events)', () => {
    const out = [
      '{"ImportPath":"example.com/calc [example.com/calc.test]","Action":"build-output","Output":"# example.com/calc [example.com/calc.test]\\n"}',
      '{"ImportPath":"example.com/calc [example.com/calc.test]","Action":"build-output","Output":"./math.go:12:9: undefined: strconv.Itoaa\\n"}',
      '{"ImportPath":"example.com/calc [example.com/calc.test]","Action":"build-fail"}',
      '{"Time":"2025-11-22T10:31:07Z","Action":"start","Package":"example.com/calc"}',
      '{"Time":"2025-11-22T10:31:07Z","Action":"output","Package":"example.com/calc","Output":"FAIL\\texample.com/calc [build failed]\\n"}',
      '{"Time":"2025-11-22T10:31:07Z","Action":"fail","Package":"example.com/calc","Elapsed":0,"FailedBuild":"example.com/calc [example.com/calc.test]"}',
    ].join('\n');
    expect(classify({ output: out })).toMatchObject({ errorClass: 'compilation_error', message: 'undefined: strconv.Itoaa (./math.go:12)' });
  });
});

describe("classifyGateFailure: seed 002's analysis hints", () => {
  it('adds the signal and value-mismatch hints for the GUT run, after the specific hint and before the class hints', () => {
    const c = classify({ output: read('gut-fail.txt') });
    expect(c.hints).toEqual([
      'Compare the expected and actual values reported for each failing test before changing code.',
      SIGNAL_HINT,
      MISMATCH_HINT,
      'Make the failing tests pass by fixing the code under test; compare the expected and actual values in the output.',
    ]);
  });

  it.each([
    ["TypeError: Cannot read properties of null (reading 'hp')", NULL_REFERENCE_HINT],
    ["AttributeError: 'NoneType' object has no attribute 'hp'", NULL_REFERENCE_HINT],
    ['panic: runtime error: invalid memory address or nil pointer dereference', NULL_REFERENCE_HINT],
    ["Invalid access to property or key 'hp' on a base object of type 'Nil'.", NULL_REFERENCE_HINT],
    ["Attempt to connect nonexistent signal 'died' to callable", SIGNAL_HINT],
    ['Error: Test timed out in 5000ms.', TEST_TIMEOUT_HINT],
    ['thrown: "Exceeded timeout of 5000 ms for a test."', TEST_TIMEOUT_HINT],
    ['expected 3 items but got 2', MISMATCH_HINT],
  ])('%s', (line, hint) => {
    expect(classify({ output: `not ok 1 - case\n# ${line}\n1..1\n` }).hints).toContain(hint);
  });

  it('does not fire on "null", "signal" or "expected" alone', () => {
    const c = classify({ output: 'not ok 1 - returns null for a missing signal handler when expected\n1..1\n' });
    expect(c.hints).not.toContain(NULL_REFERENCE_HINT);
    expect(c.hints).not.toContain(SIGNAL_HINT);
    expect(c.hints).not.toContain(MISMATCH_HINT);
    expect(c.hints).toContain(FALLBACK_HINT);
  });

  it('gives the fallback only to test failures, and never the same hint twice', () => {
    expect(classify({ exitCode: 2, output: read('tsc.txt') }).hints).not.toContain(FALLBACK_HINT);
    const twice = classify({ output: 'not ok 1 - a\n# Expected 1, got 2\nnot ok 2 - b\n# Expected 3, got 4\n1..2\n' }).hints;
    expect(twice.filter((h) => h === MISMATCH_HINT)).toHaveLength(1);
    expect(new Set(twice).size).toBe(twice.length);
  });

  it("reads the parsed failures' messages too, not only the output", () => {
    const failures = [{ name: 'heals', message: 'Attempt to call function on a null instance', expected: null, actual: null, file: null, line: null }];
    expect(classifyGateFailure(gateResult({ output: '' }), failures).hints).toContain(NULL_REFERENCE_HINT);
  });

  it('a gate timeout keeps its own hints instead of the test-timeout one', () => {
    const c = classify({ timedOut: true, exitCode: null, signal: 'SIGTERM', output: 'waiting… timeout\n' });
    expect(c.hints).not.toContain(TEST_TIMEOUT_HINT);
    expect(c.hints[0]).toMatch(/did not finish in time/);
  });
});

describe('classifyGateFailure on pathological output', () => {
  // A gate keeps up to 128 KB; one line of minified code or a deep path used to take 10-20 s. The bound is loose on
  // purpose (it runs in ~20 ms) so a slow machine does not make it flaky.
  it.each([
    ['one 128 KB token', 'a'.repeat(128 * 1024)],
    ['one 128 KB path', '/a'.repeat(64 * 1024)],
    ['dotted names', 'a.'.repeat(64 * 1024)],
    ['brackets', `${'['.repeat(64 * 1024)}] expected to equal [`],
    ['a repeated word', `${'expected '.repeat(14 * 1024)}\n`],
  ])('parses, classifies and fingerprints %s in milliseconds, not seconds', (_label, output) => {
    const started = performance.now();
    const r = gateResult({ output, reportXml: output });
    const failures = parseFailures({ output: r.output, reportXml: r.reportXml });
    const c = classifyGateFailure(r, failures);
    fingerprint({ errorClass: c.errorClass, failures, output });
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
