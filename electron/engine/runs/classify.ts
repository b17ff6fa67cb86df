// Decides why a gate failed (an ErrorClass), with a one-line summary and hints for the person or the agent's retry.
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { stripAnsi } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';

export interface Classification {
  errorClass: ErrorClass;
  /** One line a person can read, e.g. "2 tests failed: adds numbers, subtracts". */
  message: string;
  hints: string[];
}

const MAX_MESSAGE = 300;
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
  api_error: [],
  rate_limit: [],
  git_conflict: [],
  no_change: [],
};

function oneLine(text: string): string {
  const s = text.replace(/\s*\n\s*/g, ' ').replace(/\s+/g, ' ').trim();
  return s.length <= MAX_MESSAGE ? s : `${s.slice(0, MAX_MESSAGE - 1)}…`;
}

function result(errorClass: ErrorClass, message: string, extraHints: string[] = []): Classification {
  return { errorClass, message: oneLine(message), hints: [...extraHints, ...HINTS[errorClass]] };
}

function firstMatch(text: string, patterns: RegExp[]): RegExpMatchArray | null {
  for (const re of patterns) {
    const m = text.match(re);
    if (m) return m;
  }
  return null;
}

function isPackageSpecifier(spec: string): boolean {
  return !/^(?:\.{1,2}\/|\/|[A-Za-z]:[\\/]|file:)/.test(spec) && spec !== '.' && spec !== '..';
}

function missingDependency(r: GateResult, out: string): Classification | null {
  if (r.spawnError) return result('missing_dependency', `Could not start the gate command: ${r.spawnError}`);
  const notFound = out.match(/([^\s:'"`]+): (?:command )?not found\s*$/m);
  if (notFound && (r.exitCode === 127 || /: command not found\s*$/m.test(out))) {
    const cmd = notFound[1]!;
    return result('missing_dependency', `\`${cmd}\` is not installed or not on PATH (command not found)`, [
      `Check that \`${cmd}\` is installed and on the PATH the gate runs with.`,
    ]);
  }
  for (const m of out.matchAll(/Cannot find (?:module|package) ['"]([^'"]+)['"]/g)) {
    if (isPackageSpecifier(m[1]!)) return result('missing_dependency', `Cannot find module '${m[1]}'`);
  }
  for (const m of out.matchAll(/Failed to (?:resolve|load) (?:import|url) "?([^"\s]+)"?/g)) {
    if (isPackageSpecifier(m[1]!)) return result('missing_dependency', `Cannot resolve import '${m[1]}'`);
  }
  const py = out.match(/(?:ModuleNotFoundError|ImportError): No module named ['"]?([\w.]+)['"]?/) ?? out.match(/No module named ['"]?([\w.]+)['"]?/);
  if (py) return result('missing_dependency', `No module named '${py[1]}'`);
  const other = firstMatch(out, [
    /no required module provides package (\S+)/, // Go modules
    /cannot find package "([^"]+)"/, // Go, GOPATH era
    /no matching package named `([^`]+)` found/, // cargo
  ]);
  if (other) return result('missing_dependency', `Missing package ${other[1]}: ${other[0]}`);
  if (r.exitCode === 127) return result('missing_dependency', 'Exit code 127: a command the gate runs was not found');
  return null;
}

function permissionError(r: GateResult, out: string): Classification | null {
  const line = out.match(/^.*(?:: Permission denied\b|\bEACCES\b|\bPermissionError\b).*$/m);
  if (r.exitCode === 126 || line) {
    return result('permission_error', line ? line[0].trim() : 'Exit code 126: a command was found but could not be executed');
  }
  return null;
}

const SIGNAL_EXITS: Record<number, string> = { 134: 'SIGABRT', 137: 'SIGKILL', 139: 'SIGSEGV' };

function crashOrResources(r: GateResult, out: string): Classification | null {
  const crashLine = out.match(/^.*(?:Segmentation fault|core dumped|Aborted|Killed).*$/m);
  const crashed =
    r.signal !== null ||
    (r.exitCode !== null && r.exitCode in SIGNAL_EXITS) ||
    /Segmentation fault|core dumped/.test(out);
  // Out-of-memory wording is only trusted when the process actually died abnormally; the explicit errno names are
  // trusted anywhere.
  const strongResource = out.match(
    /^.*(?:JavaScript heap out of memory|\bENOSPC\b|No space left on device|\bENOMEM\b|Cannot allocate memory|^MemoryError\b|runtime: out of memory).*$/m,
  );
  const weakResource = crashed ? out.match(/^.*(?:out of memory|\bOOM\b|oom-kill).*$/im) : null;
  const resource = strongResource ?? weakResource;
  if (resource) return result('resource_exhaustion', resource[0].trim());
  if (!crashed) return null;
  const how = r.signal
    ? `Killed by ${r.signal}`
    : r.exitCode !== null && r.exitCode in SIGNAL_EXITS
      ? `Exit code ${r.exitCode} (${SIGNAL_EXITS[r.exitCode]})`
      : `Exit code ${r.exitCode ?? 'none'}`;
  return result('crash', crashLine ? `${how}: ${crashLine[0].trim()}` : how);
}

function locationSuffix(file: string | undefined, line: string | undefined): string {
  return file ? ` (${file.trim()}${line ? `:${line}` : ''})` : '';
}

function moreSuffix(count: number): string {
  return count > 1 ? ` and ${count - 1} more error${count > 2 ? 's' : ''}` : '';
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

  // esbuild (vitest, vite, tsx): "/src/a.ts:3:10: ERROR: Expected ";" but found "x""
  const esb = out.match(/^(.+?):(\d+):\d+: ERROR: (.+)$/m);
  if (esb) return result('compilation_error', `${esb[3]}${locationSuffix(esb[1], esb[2])}`);

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

function namesSummary(count: number, names: string[]): string {
  const shown = names.slice(0, MAX_NAMES_SHOWN);
  const rest = count - shown.length;
  const list = shown.join(', ') + (rest > 0 ? `, and ${rest} more` : '');
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
];

function testFailure(out: string, failures: FailedTest[]): Classification | null {
  if (failures.length > 0) {
    const hint =
      failures.some((f) => f.expected !== null || f.actual !== null)
        ? ['Compare the expected and actual values reported for each failing test before changing code.']
        : [];
    return result('test_failure', namesSummary(failures.length, failures.map((f) => leafName(f.name))), hint);
  }
  if (!TEST_FAILURE_MARKERS.some((re) => re.test(out))) return null;
  const names = textFailureNames(out);
  const counted = out.match(/Tests:?\s+(\d+) failed/) ?? out.match(/\b(\d+) failed\b/) ?? out.match(/\b(\d+) failing\b/);
  const count = Math.max(names.length, counted ? Number(counted[1]) : 0);
  if (count > 0) return result('test_failure', namesSummary(count, names));
  return result('test_failure', 'Tests failed');
}

function lastMeaningfulLine(out: string): string | null {
  const lines = out.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^[-=_~⎯*#]+$/.test(l));
  return lines.length > 0 ? lines[lines.length - 1]! : null;
}

/** Classifies a failed gate run. Pure: looks only at the result and the parsed failures. */
export function classifyGateFailure(r: GateResult, failures: FailedTest[]): Classification {
  if (r.passed) return { errorClass: 'unknown', message: 'The gate passed', hints: [] };
  const out = stripAnsi(r.output).replace(/\r\n?/g, '\n');
  if (r.timedOut) {
    return result('timeout', `Timed out after ${(r.durationMs / 1000).toFixed(1)} s: ${r.command}`);
  }
  const classified =
    missingDependency(r, out) ??
    permissionError(r, out) ??
    crashOrResources(r, out) ??
    compilationError(out) ??
    testFailure(out, failures);
  if (classified) return classified;
  const last = lastMeaningfulLine(out);
  const code = r.exitCode === null ? 'no exit code' : `exit code ${r.exitCode}`;
  return result('unknown', last ? `Failed with ${code}: ${last}` : `Failed with ${code} and no output`);
}
