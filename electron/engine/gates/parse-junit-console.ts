// Failing tests from the JUnit Platform console launcher's text ("Failures (3):" with "=> AssertionFailedError: …").
import { extractExpectedActual, MAX_FAILED_TESTS, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { testFailure, type FailureParser } from './failure-parser';

/** --details=flat: "Finished: greets() ([engine:…]/[class:CalcTest]/[method:greets()])" then "=> Exception: …" and "at" frames. */
function parseFlat(text: string): FailedTest[] {
  const lines = text.split('\n');
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(/^\s*Finished:\s+.*\[class:([^\]]+)\]\/\[method:([^\](]+)\(/);
    const exc = lines[i + 1]?.match(/^\s*=> Exception: (.+)$/);
    if (!m || !exc) continue;
    const [cls, method] = [m[1]!, m[2]!];
    const frames: string[] = [];
    for (let j = i + 2; j < lines.length && /^\s+at /.test(lines[j]!); j++) frames.push(lines[j]!.trim());
    const simple = cls.split('.').pop()!;
    const frame = frames.map((l) => l.match(new RegExp(`^at (?:[\\w.$]+\\.)?${simple}\\.${method}\\(([\\w.]+):(\\d+)\\)$`))).find((f) => f !== null);
    const message = exc[1]!.replace(/^[\w.$]+(?:Error|Exception|Failure)\w*: /, '');
    const { expected, actual } = extractExpectedActual(exc[1]!);
    out.push(
      testFailure(`${cls}.${method}`, {
        message: clip(message, MAX_MESSAGE_CHARS),
        expected,
        actual,
        file: frame?.[1] ?? null,
        line: frame ? Number(frame[2]) : null,
      }),
    );
  }
  return out;
}

function parse(text: string): FailedTest[] {
  const start = text.search(/^Failures \(\d+\):\s*$/m);
  if (start < 0) return parseFlat(text);
  const lines = text.slice(start).split('\n').slice(1);
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(/^ {2}(?:JUnit [\w ]+|[\w-]+):(.+?)\s*$/);
    if (!m) continue;
    const parts = m[1]!.split(':'); // "CalcTest:greets()"
    const method = parts[parts.length - 1]!.replace(/^([^(]*)\(.*\)$/, '$1');
    const cls = parts.slice(0, -1).join('.');
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && /^ {4,}/.test(lines[j]!); j++) body.push(lines[j]!);
    i = j - 1;
    const exc = body.find((l) => /^\s*=> /.test(l))?.replace(/^\s*=> /, '') ?? '';
    const message = exc.replace(/^[\w.$]+(?:Error|Exception|Failure)\w*: /, '');
    const { expected, actual } = extractExpectedActual(exc);
    const simple = cls.split('.').pop()!;
    const frame = body.map((l) => l.trim().match(new RegExp(`^(?:[\\w.$]+\\.)?${simple}\\.${method}\\(([\\w.]+):(\\d+)\\)$`))).find((f) => f !== null);
    out.push(
      testFailure(`${cls}.${method}`, {
        message: message ? clip(message, MAX_MESSAGE_CHARS) : null,
        expected,
        actual,
        file: frame?.[1] ?? null,
        line: frame ? Number(frame[2]) : null,
      }),
    );
  }
  return out;
}

export const junitConsoleParser: FailureParser = {
  id: 'junit-console',
  marker: /^Failures \(\d+\):|MethodSource \[|^[ \t]*=> Exception: |^ {2}(?:JUnit [\w ]+|[\w-]+):\S/,
  detect: (t) => (/^Failures \(\d+\):\s*$/m.test(t) && /MethodSource \[/.test(t)) || /^[ \t]*=> Exception: /m.test(t),
  parse,
};
