// Decides why a gate failed (an ErrorClass), with a one-line summary and hints for the person or the agent's retry.
import { ERROR_CLASSES } from '../../../shared/domain';
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { goTestJsonText, stripAnsi } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import type { ClassifyContext } from './classify-context';
import { missingDependency } from './classify-missing';
import { networkFailure } from './classify-network';
import { npmHeadline, npmProjectFailure } from './classify-npm';
import { locationSuffix, moreSuffix, result, type Classification, type SideMessage } from './classify-result';

export type { Classification } from './classify-result';
export type { BaselineFacts, ClassifyContext } from './classify-context';

const MAX_NAMES_SHOWN = 5;

const HINTS: Record<ErrorClass, string[]> = {
  timeout: [
    'The gate did not finish in time: look for an infinite loop, a test waiting on input or the network, or a server that never exits.',
    "If the suite is simply slow, raise the gate's timeoutS.",
  ],
  missing_dependency: ['Install the missing package or fix the import; retrying the agent will not help.'],
  permission_error: [
    'A file or directory could not be accessed: make scripts executable (chmod +x) or run them through their interpreter, and check ownership in the worktree.',
  ],
  resource_exhaustion: [
    'The process ran out of memory or disk space: free space, raise the limit (e.g. NODE_OPTIONS=--max-old-space-size=4096) or make the code use less.',
  ],
  crash: [
    'The process was killed by a signal or crashed in native code: check native modules, unbounded recursion, or whether something else killed it.',
  ],
  compilation_error: ['Fix the compiler errors first: the tests cannot run until the code builds.'],
  test_failure: ['Make the failing tests pass by fixing the code under test; compare the expected and actual values in the output.'],
  unknown: ['The failure matched no known pattern: read the end of the gate output.'],
  api_error: ['The API or the network to it failed (overloaded, 5xx, connection reset): usually transient, so retry after a backoff.'],
  rate_limit: ['The API is rate limiting: wait before retrying (honour Retry-After when given); retrying at once fails again.'],
  git_conflict: [
    'Git stopped on conflicting changes: resolve the conflict markers in the listed files or rebase once more onto the base branch; if it comes back, a person has to merge.',
  ],
  environment: [
    "The worktree's environment is not ready (setup, network, registry or an installed dependency): fix it, then retry or resume; no agent attempt can.",
  ],
  sandbox_violation: [
    "The agent's files tried to steer Ratchet's own processes outside the sandbox (a rewritten .git file or a nested repository): nothing of the attempt was staged or run.",
  ],
  no_change: [],
  empty_attempt: ["The step's change has to be made in the worktree's files: edit them (a description of the change is not the change)."],
  tdd_violation: [
    'This step is test first: its first attempt adds a test for the change and nothing that makes it pass; the gates must fail on that test before the change is implemented.',
  ],
};

// Seed 002's analyze_failure hints, in its wording. Its tests are substrings ('null' in text); these are narrower
// because "null", "signal" or "timeout" alone appear in too much ordinary output.
export const NULL_REFERENCE_HINT = 'Looks like a null reference - check object initialization';
export const SIGNAL_HINT = 'Signal not emitted/connected - verify signal declaration and emission';
export const MISMATCH_HINT = 'Value mismatch - check your calculations and logic';
export const TEST_TIMEOUT_HINT = 'Test timed out - might be infinite loop or waiting for event that never happens';
export const FALLBACK_HINT = 'Review the error message above and the test expectations';
// Two words on one line are tested word by word: one regex spanning the line ("expected[^\n]*got") is quadratic on a
// long line that repeats the first word.
const onOneLine = (text: string, a: RegExp, b: RegExp): boolean => text.split('\n').some((l) => a.test(l) && b.test(l));
const ANALYSIS: ReadonlyArray<readonly [(text: string) => boolean, string]> = [
  [
    (t) =>
      /\bnull (?:reference|instance|value|pointer)\b|\bNull(?:Pointer|Reference)Exception\b|Cannot read propert(?:y|ies) of (?:null|undefined)|'NoneType' object has no attribute|nil pointer dereference|base(?: object of type)?:? '(?:Nil|null instance)'/i.test(t),
    NULL_REFERENCE_HINT,
  ],
  [
    (t) =>
      /\bto have (?:been )?emitted signal\b|\bnonexistent signal\b/i.test(t) ||
      onOneLine(t, /\bsignal\b/i, /\bnot (?:been )?(?:emitted|connected)\b/i),
    SIGNAL_HINT,
  ],
  [(t) => onOneLine(t, /\bexpected\b/i, /\bgot\b/i), MISMATCH_HINT],
  [(t) => /\btim(?:ed|e) ?out\b|\bexceeded timeout\b/i.test(t), TEST_TIMEOUT_HINT],
];

function permissionError(r: GateResult, out: string, side: SideMessage): Classification | null {
  // The descriptive line first ("…: Read-only file system") over a bare errno line ("npm ERR! code EROFS").
  const line =
    // "PermissionError:" as a raised exception; a test that expects one ("DID NOT RAISE <class 'PermissionError'>",
    // pytest.raises(PermissionError)) names it without the colon. Seed 002 prints "Permission denied: /etc/godot/config".
    out.match(/^.*(?:: Permission denied\b|^\s*Permission denied: \S|\bEACCES\b|\bPermissionError: ).*$/m) ??
    out.match(/^.*(?:(?:: |\] |")(?:Read-only file ?system|Operation not permitted)\b|cannot write to (?:a )?read-only file ?system).*$/im) ??
    out.match(/^.*\b(?:EROFS|EPERM)\b.*$/m);
  if (line && side(line[0])) return null;
  if (r.exitCode === 126 || line) {
    return result('permission_error', line ? line[0].trim() : 'Exit code 126: a command was found but could not be executed');
  }
  return null;
}

const SIGNAL_EXITS: Record<number, string> = { 134: 'SIGABRT', 137: 'SIGKILL', 139: 'SIGSEGV' };
// Godot's crash handler, and the wording of seed 002's Godot server.
const GODOT_CRASH = /^.*(?:handle_crash: Program crashed with signal \d+|\bGodot crashed with signal \d+).*$/m;

function crashOrResources(r: GateResult, out: string, side: SideMessage): Classification | null {
  const crashLine = out.match(GODOT_CRASH) ?? out.match(/^.*(?:Segmentation fault|core dumped|Aborted|Killed).*$/m);
  const crashed =
    r.signal !== null ||
    (r.exitCode !== null && r.exitCode in SIGNAL_EXITS) ||
    /Segmentation fault|core dumped/.test(out) ||
    GODOT_CRASH.test(out);
  // Out-of-memory wording is only trusted when the process actually died abnormally; the explicit errno names are
  // trusted anywhere.
  const strongResource = out.match(
    /^.*(?:JavaScript heap out of memory|\bENOSPC\b|No space left on device|\bENOMEM\b|Cannot allocate memory|^MemoryError\b|runtime: out of memory|Disk quota exceeded|\bEDQUOT\b|File size limit exceeded|File too large|\bEFBIG\b|fork: (?:retry: )?Resource temporarily unavailable|failed to create new OS thread|Array buffer allocation failed).*$/m,
  );
  // Seed 002's bare "Out of memory" and "Disk full" lines say it whatever the exit code.
  const seedResource = out.match(/^\s*(?:[\w.-]+: )?(?:Out of memory|Disk full)\.?\s*$/im);
  const weakResource = crashed ? out.match(/^.*(?:out of memory|\bOOM\b|oom-kill).*$/im) : null;
  const resource = strongResource ?? seedResource ?? weakResource;
  if (resource && !side(resource[0])) return result('resource_exhaustion', resource[0].trim());
  if (r.signal === 'SIGXFSZ' || r.exitCode === 153) return result('resource_exhaustion', 'Killed by SIGXFSZ: a file grew past the file size limit (sandbox.limits.file_mb in ratchet.yml)');
  if (!crashed) return null;
  const how = r.signal
    ? `Killed by ${r.signal}`
    : r.exitCode !== null && r.exitCode in SIGNAL_EXITS
      ? `Exit code ${r.exitCode} (${SIGNAL_EXITS[r.exitCode]})`
      : `Exit code ${r.exitCode ?? 'none'}`;
  return result('crash', crashLine ? `${how}: ${crashLine[0].trim()}` : how);
}

function gitConflict(out: string): Classification | null {
  const conflicts = [...out.matchAll(/^CONFLICT \([^)]+\): .+$/gm)];
  if (conflicts.length > 0) {
    const more = conflicts.length - 1;
    return result('git_conflict', `${conflicts[0]![0].trim()}${more > 0 ? ` and ${more} more conflict${more > 1 ? 's' : ''}` : ''}`);
  }
  const stopped = out.match(/^error: could not apply .*$/m) ?? out.match(/^Automatic merge failed\b.*$/m);
  return stopped ? result('git_conflict', stopped[0].trim()) : null;
}

function compilationError(out: string): Classification | null {
  // TypeScript: "src/a.ts(3,7): error TS2322: …" or, with --pretty, "src/a.ts:3:7 - error TS2322: …"
  const tsCount = out.match(/\berror TS\d+:/g)?.length ?? 0;
  if (tsCount > 0) {
    const m =
      out.match(/^(.+?)\((\d+),\d+\): error (TS\d+): (.+)$/m) ?? out.match(/^(.+?):(\d+):\d+ - error (TS\d+): (.+)$/m);
    if (m) return result('compilation_error', `${m[3]}: ${m[4]}${locationSuffix(m[1], m[2])}${moreSuffix(tsCount)}`);
    const g = out.match(/\berror (TS\d+): (.+)$/m)!;
    return result('compilation_error', `${g[1]}: ${g[2]}${moreSuffix(tsCount)}`);
  }

  // Rust: "error[E0308]: mismatched types\n --> src/lib.rs:3:5"
  const rustCount = out.match(/^error(?:\[E\d+\])?: (?!aborting due to|could not compile)/gm)?.length ?? 0;
  if (/^error\[E\d+\]: /m.test(out) || /^error: could not compile/m.test(out)) {
    const m = out.match(/^error(?:\[(E\d+)\])?: (?!aborting due to|could not compile)(.+)\n\s*--> (.+?):(\d+):\d+/m);
    if (m) return result('compilation_error', `${m[1] ? `${m[1]}: ` : ''}${m[2]}${locationSuffix(m[3], m[4])}${moreSuffix(rustCount)}`);
    return result('compilation_error', out.match(/^error.*$/m)![0]);
  }

  // Go: "./math.go:4:9: undefined: foo" (test log lines have no column, so they do not match)
  const goLines = [...out.matchAll(/^((?:\.{1,2}\/)?[\w./-]*\.go):(\d+):\d+: (.+)$/gm)];
  if (goLines.length > 0 || /\[(?:build|setup) failed\]/.test(out)) {
    const m = goLines[0];
    if (m) return result('compilation_error', `${m[3]}${locationSuffix(m[1], m[2])}${moreSuffix(goLines.length)}`);
    return result('compilation_error', out.match(/^.*\[(?:build|setup) failed\].*$/m)![0]);
  }

  // gcc / clang / javac and friends: "main.c:3:5: error: …", "Foo.java:3: error: …"
  const ccLines = [
    ...out.matchAll(/^(.+?\.(?:c|cc|cpp|cxx|h|hh|hpp|m|mm|java|kt|swift|zig|cs)):(\d+):(?:\d+:)? (?:fatal )?error: (.+)$/gm),
  ];
  if (ccLines.length > 0) {
    const m = ccLines[0]!;
    return result('compilation_error', `${m[3]}${locationSuffix(m[1], m[2])}${moreSuffix(ccLines.length)}`);
  }
  const link = out.match(/^.*(?:undefined reference to|ld returned \d+ exit status|error CS\d+:|Undefined symbols for architecture).*$/m);
  if (link) return result('compilation_error', link[0].trim());

  // ESLint (stylish): "  5:20  error  'nme' is not defined  no-undef" under the file's path, then "✖ 3 problems (3 errors, …)"
  const eslint = out.match(/^\s*✖ (\d+) problems? \((\d+) errors?/m);
  if (eslint && Number(eslint[2]) > 0) {
    const first = out.match(/^(\S.*)\n\s+(\d+):\d+\s+error\s+(.+?)(?:\s{2,}(\S+))?\s*$/m);
    const count = Number(eslint[2]);
    if (first) return result('compilation_error', `${first[3]}${first[4] ? ` (${first[4]})` : ''}${locationSuffix(first[1], first[2])}${moreSuffix(count)}`);
    return result('compilation_error', eslint[0].trim());
  }

  // esbuild (vitest, vite, tsx): "/src/a.ts:3:10: ERROR: Expected ";" but found "x""
  const esb = out.match(/^(.+?):(\d+):\d+: ERROR: (.+)$/m);
  if (esb) return result('compilation_error', `${esb[3]}${locationSuffix(esb[1], esb[2])}`);

  // Godot: "SCRIPT ERROR: Parse Error: …" then "   at: GDScript::reload (res://player.gd:14)"; Godot 3 puts a
  // function before the message and "At: res://player.gd:14." after. Seed 002 counts a bad property name
  // ("Invalid get index 'helth'") as a compile error: it is a typo the agent can fix, like a parse error.
  const godot = [
    ...out.matchAll(/^(?:SCRIPT ERROR: )?(?:[\w.:]+: )?((?:Parse Error|Invalid (?:get|set) index|Invalid access to property or key)\b.*)$/gm),
  ];
  if (godot.length > 0) {
    const m = godot[0]!;
    const after = out.slice((m.index ?? 0) + m[0].length).split('\n').slice(1, 3).join('\n');
    const loc = after.match(/(res:\/\/[^\s():]+):(\d+)/);
    return result('compilation_error', `${m[1]!.trim()}${loc ? locationSuffix(loc[1], loc[2]) : ''}${moreSuffix(godot.length)}`);
  }

  // Python: a name missing from a project module (installed packages were handled as missing dependencies).
  const pyName = out.match(/ImportError: cannot import name '[^']+' from .*$/m);
  if (pyName) return result('compilation_error', pyName[0].trim());

  // Python and JavaScript syntax errors. A SyntaxError about JSON is a runtime failure inside a test, not a build error.
  const syn = out.match(/^(?:E\s+)?.*?\b(SyntaxError|IndentationError|TabError): (?!.*JSON)(.+)$/m);
  if (syn) {
    const before = out.slice(0, syn.index);
    const py = [...before.matchAll(/File "([^"]+)", line (\d+)/g)].pop();
    const js = [...before.matchAll(/^((?:file:\/\/)?\/?[^\s:()]+\.[cm]?[jt]sx?):(\d+)$/gm)].pop();
    const loc = py ?? js;
    return result('compilation_error', `${syn[1]}: ${syn[2]}${loc ? locationSuffix(loc[1], loc[2]) : ''}`);
  }
  return null;
}

function leafName(name: string): string {
  const parts = name.split(/ > | › |::/);
  return parts[parts.length - 1]!.trim() || name;
}

/** "2 tests failed: a, b"; an empty name is never listed, and "and N more" only follows names. */
function namesSummary(count: number, names: string[]): string {
  const shown = names.filter((n) => n.trim() !== '').slice(0, MAX_NAMES_SHOWN);
  const rest = count - shown.length;
  const list = shown.length > 0 ? shown.join(', ') + (rest > 0 ? `, and ${rest} more` : '') : '';
  return `${count} test${count === 1 ? '' : 's'} failed${list ? `: ${list}` : ''}`;
}

/** Failing test names straight from common runners' text output, for when no TAP or JUnit was parsed. */
function textFailureNames(out: string): string[] {
  const names: string[] = [];
  const add = (n: string | undefined): void => {
    const name = n?.trim();
    if (name && !names.includes(name)) names.push(name);
  };
  // go test: a parent test fails when a subtest does; name only the subtests ("TestParse/with_spaces").
  const goNames = [...out.matchAll(/^\s*--- FAIL: (\S+)/gm)].map((m) => m[1]!);
  for (const n of goNames) if (!goNames.some((other) => other.startsWith(`${n}/`))) add(n);
  for (const m of out.matchAll(/^test (\S+) \.\.\. FAILED$/gm)) add(m[1]?.split('::').pop()); // cargo test
  for (const m of out.matchAll(/^FAILED (\S+?)(?: - .*)?$/gm)) add(m[1]?.split('::').pop()); // pytest summary
  for (const m of out.matchAll(/^\s*● (?!Test suite failed to run)(.+)$/gm)) add(m[1]?.split(' › ').pop()); // jest
  for (const m of out.matchAll(/^\s*FAIL\s+\S+\.\w+ > (.+)$/gm)) add(m[1]?.split(' > ').pop()); // vitest
  return names;
}

const TEST_FAILURE_MARKERS = [
  /^\s*not ok \d+/m,
  /^\s*FAIL\b/m,
  /^\s*--- FAIL:/m,
  /AssertionError/,
  /^\s*Tests:\s+\d+ failed/m,
  /\b[1-9]\d* (?:failed|failing)\b/,
  /test result: FAILED/,
  /^# fail [1-9]/m,
  /ℹ fail [1-9]/,
  /^FAILED\b/m,
  /^\s*\[Failed\]:/m, // GUT
  /^Failing Tests\s+[1-9]/im, // GUT's totals
];

/** " (a and b already failed on the base commit)" for the failing tests the baseline run saw fail too. */
function alreadyFailing(names: string[], baseline: ClassifyContext['baseline']): string[] {
  const before = (baseline?.failingTests ?? []).map((n) => leafName(n));
  return names.filter((n) => before.includes(n) || before.includes(leafName(n)));
}

function testFailure(out: string, failures: FailedTest[], ctx: ClassifyContext): Classification | null {
  // Only compile errors parsed (a linter's or compiler's format the patterns above do not name): the code must build first.
  if (failures.length > 0 && failures.every((f) => f.kind === 'compile')) {
    const first = failures[0]!;
    return result('compilation_error', `${first.name}: ${first.message?.split('\n')[0] ?? ''}${moreSuffix(failures.length)}`);
  }
  if (failures.length > 0) {
    const hint =
      failures.some((f) => f.expected !== null || f.actual !== null)
        ? ['Compare the expected and actual values reported for each failing test before changing code.']
        : [];
    const names = failures.map((f) => leafName(f.name));
    const old = alreadyFailing(names, ctx.baseline);
    if (old.length === 0) return result('test_failure', namesSummary(failures.length, names), hint);
    const which = old.length <= 2 ? old.join(' and ') : `${old.length} of them`;
    return result('test_failure', `${namesSummary(failures.length, names)} (${which} already failed on the base commit)`, [
      `${old.join(', ')} already failed on the base commit, before this run's changes: the gate fails until they pass, so fix them only if the step asks for it, or change the gate.`,
      ...hint,
    ]);
  }
  if (!TEST_FAILURE_MARKERS.some((re) => re.test(out))) return null;
  const names = textFailureNames(out);
  const counted = out.match(/Tests:?\s+(\d+) failed/) ?? out.match(/\b(\d+) failed\b/) ?? out.match(/\b(\d+) failing\b/);
  const count = Math.max(names.length, counted ? Number(counted[1]) : 0);
  if (count > 0) return result('test_failure', namesSummary(count, names));
  return result('test_failure', 'Tests failed');
}

// API failures as CLI agents (Claude Code's "API Error: 529 {…}") and HTTP clients print them. Checked only after
// test failures: a test suite for an API client prints these words in its assertions.
const RATE_LIMIT_LINES = [
  /^.*\bAPI Error:? \(?429\b.*$/m,
  /^.*\brate_limit_error\b.*$/m,
  /^.*\b429 Too Many Requests\b.*$/im,
  /^.*\bHTTP\/[\d.]+ 429\b.*$/m,
  /^.*\b(?:HTTP|status(?: code)?:?) 429\b.*$/im,
  /^.*\b(?:usage limit reached|rate limit (?:exceeded|reached))\b.*$/im,
];
const API_ERROR_LINES = [
  /^.*\boverloaded_error\b.*$/m,
  /^.*\bAPI Error:? \(?5\d\d\b.*$/m,
  /^.*"type":\s*"api_error".*$/m,
  /^.*\bHTTP\/[\d.]+ 5\d\d\b.*$/m,
  /^.*\b5\d\d (?:Server Error|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b.*$/im, // "502 Server Error: Bad Gateway" (requests)
  /^.*\bAPI Error:? \(?(?:Connection error|Request timed out)\b.*$/im,
];
const NETWORK_LINE = /^.*\b(?:ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up)\b.*$/m;
// A connection failure only says "API" when something names one: an API host, an API URL or the word.
const TOWARDS_API = /https?:\/\/[^\s/]*api|\bapi\.[\w-]+\.\w+|\bAPI\b/;

/** The last line that one of `patterns` (tried in order) matches: clients print retries first and the outcome last. */
function lastLineOf(text: string, patterns: RegExp[]): string | null {
  for (const re of patterns) {
    const all = [...text.matchAll(new RegExp(re.source, `${re.flags}g`))];
    if (all.length > 0) return all[all.length - 1]![0].trim();
  }
  return null;
}

function apiFailure(out: string): Classification | null {
  const limited = lastLineOf(out, RATE_LIMIT_LINES);
  if (limited) return result('rate_limit', limited);
  const api = lastLineOf(out, API_ERROR_LINES);
  if (api) return result('api_error', api);
  const net = out.match(NETWORK_LINE);
  if (net && (TOWARDS_API.test(net[0]) || TOWARDS_API.test(out))) return result('api_error', net[0].trim());
  const retry = out.match(/^.*\bretry-after:\s*\S.*$/im);
  if (retry) return result('rate_limit', `The API asked to retry later: ${retry[0].trim()}`);
  return null;
}

function unitSeconds(unit: string | undefined): number {
  const u = (unit ?? 's').toLowerCase();
  if (u.startsWith('ms') || u.startsWith('milli')) return 0.001;
  if (u.startsWith('h')) return 3600;
  if (u.startsWith('m')) return 60;
  return 1;
}

/**
 * Seconds to wait, from the last "Retry-After: 3600" header, "retry after 30s", "retry-after-ms: 1500" or
 * '"retry_after": 30' in the text; an HTTP-date Retry-After counts from `now`. Null when there is none.
 */
export function retryAfterFromText(output: string, now: number = Date.now()): number | null {
  const text = stripAnsi(typeof output === 'string' ? output : '');
  let found: number | null = null;
  const re =
    /\bretry[-_ ]after(?:(-ms)|"?)\s*[:=]?\s*(?:(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?\b|((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT))/gi;
  for (const m of text.matchAll(re)) {
    if (m[4]) {
      const at = Date.parse(m[4]);
      if (Number.isFinite(at)) found = Math.max(0, Math.ceil((at - now) / 1000));
      continue;
    }
    const n = Number(m[2]) * unitSeconds(m[1] ? 'ms' : m[3]);
    if (Number.isFinite(n)) found = Math.round(n * 1000) / 1000;
  }
  return found;
}

function lastMeaningfulLine(out: string): string | null {
  // A log file's whereabouts (npm's "A complete log of this run can be found in: …") says nothing about the failure.
  const lines = out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=_~⎯*#]+$/.test(l) && !/^(?:npm (?:ERR!|error)\s*$|.*\bA complete log of this run can be found in\b)/.test(l));
  return lines.length > 0 ? lines[lines.length - 1]! : null;
}

function userRule(rules: ReadonlyArray<{ pattern: string; class: ErrorClass }>, out: string): Classification | null {
  for (const rule of rules) {
    if (!rule || typeof rule.pattern !== 'string' || !(ERROR_CLASSES as readonly string[]).includes(rule.class)) continue;
    let re: RegExp;
    try {
      re = new RegExp(rule.pattern, 'm');
    } catch {
      continue; // the workflow schema rejects bad patterns; one that slipped through must not stop classification
    }
    const m = re.exec(out);
    if (!m) continue;
    const start = out.lastIndexOf('\n', m.index - 1) + 1;
    const end = out.indexOf('\n', m.index);
    const line = out.slice(start, end < 0 ? undefined : end).trim() || (m[0].trim().split('\n')[0] ?? '');
    return result(rule.class, `matched your rule /${rule.pattern}/ → ${rule.class}${line ? `: ${line}` : ''}`);
  }
  return null;
}

/** The classification's own hints, then seed 002's analysis of the text, then the class's standing hints. */
function withHints(c: Classification, out: string, failures: FailedTest[]): Classification {
  const text = [out, ...failures.map((f) => f.message ?? '')].join('\n');
  const analysis = ANALYSIS.filter(([applies]) => applies(text)).map(([, hint]) => hint);
  // A gate timeout's own hints already say what the test-timeout hint says.
  const seeded = c.errorClass === 'timeout' ? analysis.filter((h) => h !== TEST_TIMEOUT_HINT) : analysis;
  if (seeded.length === 0 && c.errorClass === 'test_failure') seeded.push(FALLBACK_HINT);
  const wait = c.errorClass === 'rate_limit' ? retryAfterFromText(out) : null;
  const waitHint = wait !== null ? [`The API asked to wait ${wait} s before retrying (Retry-After).`] : [];
  const hints = [...new Set([...c.hints, ...waitHint, ...seeded, ...HINTS[c.errorClass]])];
  return { ...c, hints };
}

// A failure that stands for a whole test file that did not run (node --test's "test failed", jest's "Test suite failed
// to run"): what stopped it is printed beside it, so it makes no other line a side message.
const FILE_LEVEL_NAME = /\.(?:[cm]?[jt]sx?|py|go|rs|gd)$/;
const FILE_LEVEL_MESSAGE = /^(?:test failed|Test suite failed to run)\b/i;

/** Lines outside every parsed failing test (not compiler errors) are side messages: they never outrank the tests. */
function sideOf(failing: readonly FailedTest[]): SideMessage {
  const tests = failing.filter((f) => !FILE_LEVEL_NAME.test(f.name.trim()) && !FILE_LEVEL_MESSAGE.test(f.message?.trim() ?? ''));
  if (tests.length === 0) return () => false;
  const texts = tests.map((f) => `${f.name}\n${f.message ?? ''}`);
  const leads = tests.map((f) => (f.message ?? '').split('\n').map((l) => l.trim()).find((l) => l.length >= 8)).filter((l): l is string => !!l);
  return (line) => {
    const core = line.trim().replace(/^(?:E\s+|npm (?:ERR!|error) )/, '');
    return core === '' || (!texts.some((t) => t.includes(core)) && !leads.some((l) => core.includes(l)));
  };
}

// A test runner's own time limit as seed 002 prints it ("Test exceeded 300s timeout"): a timeout, as the seed says.
const TEST_TIMEOUT_LINE = /^\s*(?:Tests?|Gate|Job) exceeded (?:its )?\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)? timeout\b.*$/im;

/** Seed 002's analysis of a failure's text: the hints (NULL_REFERENCE_HINT, SIGNAL_HINT, …) whose pattern it matches. */
export function seedAnalysis(text: string): string[] {
  return ANALYSIS.filter(([applies]) => applies(text)).map(([, hint]) => hint);
}

/** The hints a failure of `errorClass` gets from its text alone (seed 002's analysis and the class's own): for a failure rebuilt from the store. */
export function hintsFor(errorClass: ErrorClass, output: string, failures: FailedTest[]): string[] {
  return withHints({ errorClass, message: '', hints: [] }, stripAnsi(output).replace(/\r\n?/g, '\n'), failures).hints;
}

/**
 * Classifies a failed gate run. Pure but for the clock (a Retry-After given as a date): looks only at the result, the
 * parsed failures, the workflow's `rules`, which are tried first (the first whose pattern matches the output wins),
 * before the built-in patterns, and what `context` tells (see ClassifyContext: the attempt's diff, the manifests, the
 * base commit's failures, the network list), which decides whose a missing module or a refused host is.
 */
export function classifyGateFailure(
  r: GateResult,
  failures: FailedTest[],
  rules?: ReadonlyArray<{ pattern: string; class: ErrorClass }>,
  context: ClassifyContext = {},
): Classification {
  if (r.passed) return { errorClass: 'unknown', message: 'The gate passed', hints: [] };
  const raw = stripAnsi(r.output).replace(/\r\n?/g, '\n');
  const ruled = rules && rules.length > 0 ? userRule(rules, raw) : null;
  if (ruled) return withHints(ruled, raw, failures);
  // go test -json wraps every line in an event; the text patterns below read what it would have printed.
  const out = goTestJsonText(raw) ?? raw;
  if (r.timedOut) {
    return withHints(result('timeout', `Timed out after ${(r.durationMs / 1000).toFixed(1)} s: ${r.command}`), out, failures);
  }
  const tests = failures.filter((f) => f.kind !== 'compile');
  const side = sideOf(tests);
  const exceeded = out.match(TEST_TIMEOUT_LINE);
  if (exceeded && !side(exceeded[0])) return withHints(result('timeout', exceeded[0].trim()), out, failures);
  const classified =
    networkFailure(r, out, context, side) ??
    missingDependency(r, out, context, failures, side) ??
    npmProjectFailure(out) ??
    permissionError(r, out, side) ??
    crashOrResources(r, out, side) ??
    gitConflict(out) ??
    compilationError(out) ??
    testFailure(out, failures, context) ??
    apiFailure(out);
  if (classified) return withHints(classified, out, failures);
  const npm = npmHeadline(out);
  if (npm) return withHints(result('unknown', npm), out, failures);
  const last = lastMeaningfulLine(out);
  const code = r.exitCode === null ? 'no exit code' : `exit code ${r.exitCode}`;
  return withHints(result('unknown', last ? `Failed with ${code}: ${last}` : `Failed with ${code} and no output`), out, failures);
}
