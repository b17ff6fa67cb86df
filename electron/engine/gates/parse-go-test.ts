// Failing tests from `go test` text output (plain or -v, subtests, t.Errorf got/want, panics) and from -json streams
// turned back into that text.
import { extractExpectedActual, userFile, MAX_FAILED_TESTS, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, none, one, type FailureParser } from './failure-parser';
import { goTestJsonText, parseGoTestJson } from './parse-json-reports';

interface GoTest {
  name: string;
  pkg: string | null;
  logs: { file: string; line: number; text: string }[];
  panic: string | null;
  panicFrame: { file: string; line: number } | null;
}

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const tests = new Map<string, GoTest>();
  const failed: string[] = [];
  let pending: string[] = []; // failed tests whose package line ("FAIL\tpkg") has not come yet
  let current: string | null = null;
  let lastLog: GoTest['logs'][number] | null = null;
  let lastLogIndent = 0;
  const get = (name: string): GoTest => {
    let t = tests.get(name);
    if (!t) {
      t = { name, pkg: null, logs: [], panic: null, panicFrame: null };
      tests.set(name, t);
    }
    return t;
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (CUT_MARKER.test(l)) {
      // Lines after a cut belong to a test whose header may be gone.
      [current, lastLog] = [null, null];
      continue;
    }
    let m = l.match(/^\s*=== (?:RUN|CONT|NAME)\s+(\S+)/);
    if (m) {
      current = m[1]!;
      lastLog = null;
      continue;
    }
    m = l.match(/^\s*--- FAIL: (\S+)/);
    if (m) {
      current = m[1]!;
      lastLog = null;
      if (!failed.includes(current)) failed.push(current);
      pending.push(current);
      get(current);
      continue;
    }
    m = l.match(/^(?:FAIL|ok)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[)/);
    if (m) {
      for (const n of pending) get(n).pkg ??= m[1]!;
      pending = [];
      current = null;
      continue;
    }
    m = l.match(/^panic: (.+?)(?: \[recovered\])?$/);
    if (m && current) {
      const t = get(current);
      t.panic ??= m[1]!;
      if (!failed.includes(current)) failed.push(current);
      continue;
    }
    m = l.match(/^(\s+)([\w.-]+\.go):(\d+): (.*)$/);
    if (m && current) {
      lastLog = { file: m[2]!, line: Number(m[3]), text: m[4]! };
      lastLogIndent = m[1]!.length;
      get(current).logs.push(lastLog);
      continue;
    }
    if (lastLog && l.trim() !== '' && l.match(/^\s*/)![0].length > lastLogIndent && !/^\s*--- /.test(l)) {
      lastLog.text += `\n${l.trim()}`;
      continue;
    }
    lastLog = null;
  }
  // A panic's stack names the test function; the frame under it is the test's line.
  for (let i = 0; i < lines.length - 1; i++) {
    const fn = lines[i]!.match(/^\S*\.(Test\w*)(?:\.func\d+)*\(/);
    if (!fn) continue;
    const t = [...tests.values()].find((x) => x.panic !== null && x.panicFrame === null && x.name.split('/')[0] === fn[1]);
    const at = lines[i + 1]!.match(/^\s+(\S+\.go):(\d+)/);
    if (t && at && userFile(at[1]!)) t.panicFrame = { file: at[1]!, line: Number(at[2]) };
  }
  const leaves = failed.filter((n) => !failed.some((o) => o.startsWith(`${n}/`)) || tests.get(n)?.panic);
  return leaves.slice(0, MAX_FAILED_TESTS).map((n) => {
    const t = get(n);
    // t.Log and t.Error print alike: the failure is the line with values, else the last line the test logged.
    const log = t.logs.find((x) => extractExpectedActual(x.text).expected !== null) ?? t.logs[t.logs.length - 1] ?? null;
    const all = [t.panic ? `panic: ${t.panic}` : '', ...t.logs.map((x) => `${x.file}:${x.line}: ${x.text}`)].filter(Boolean).join('\n');
    const { expected, actual } = log ? extractExpectedActual(log.text) : { expected: null, actual: null };
    const where = t.panicFrame ?? (log ? { file: log.file, line: log.line } : null);
    return testFailure(t.pkg ? `${t.pkg} > ${n}` : n, {
      message: all ? clip(all, MAX_MESSAGE_CHARS) : null,
      expected,
      actual,
      file: where?.file ?? null,
      line: where?.line ?? null,
    });
  });
}

export const goTestParser: FailureParser = {
  id: 'go-test',
  // "ok  	example.com/x	0.01s", "--- FAIL", "?   	example.com/x	[no test files]", "ok … [no tests to run]"
  counts: [
    one(/^(?:ok|FAIL)[ \t]+\S+[ \t]+(?!.*\[no tests to run\])\S.*$/gm),
    one(/^(?:---|===) (?:RUN|PASS|FAIL)\b/gm),
    none(/^\?\s+\S+\s+\[no test files\]/gm),
    none(/^ok\s+\S+\s+.*\[no tests to run\]/gm),
  ],
  marker: /^[ \t]*--- FAIL: \S|^panic: |^FAIL[ \t]/,
  detect: (t) => /^[ \t]*--- FAIL: \S/m.test(t),
  parse,
};

export const goTestJsonParser: FailureParser = {
  id: 'go-test-json',
  counts: [one(/"Action":"(?:run|pass|fail)","Package":"[^"]*","Test":/g), none(/"Output":"\?\s+(?:\\t)?\S+?(?:\\t|\s)+\[no test files\]/g)],
  marker: /"Action":"fail"/,
  detect: (t) => /^\{"(?:Time|Action)":/m.test(t),
  parse: (t) => {
    const plain = goTestJsonText(t);
    const fromText = plain ? parse(plain) : [];
    return fromText.length > 0 ? fromText : parseGoTestJson(t);
  },
};
