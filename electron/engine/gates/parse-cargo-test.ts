// Failing tests from `cargo test` (libtest): "---- name stdout ----" blocks, panics with file:line, assert_eq! left/right.
import { cleanValue, MAX_FAILED_TESTS, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, counted, type FailureParser } from './failure-parser';

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(/^---- (\S+) stdout ----$/);
    if (!m) continue;
    const name = m[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^---- \S+ stdout ----$/.test(lines[j]!) && !/^failures:\s*$/.test(lines[j]!) && !CUT_MARKER.test(lines[j]!); j++)
      body.push(lines[j]!);
    i = j - 1;
    // Rust ≥ 1.73: "thread 'x' panicked at src/lib.rs:19:9:\nmessage"; older: "thread 'x' panicked at 'message', src/lib.rs:19:9".
    let file: string | null = null;
    let line: number | null = null;
    let message = '';
    const at = body.findIndex((l) => /^thread '.*' (?:\(\d+\) )?panicked at /.test(l));
    if (at >= 0) {
      const now = body[at]!.match(/panicked at (.+?):(\d+):\d+:$/);
      const old = body[at]!.match(/panicked at '(.*)', (.+?):(\d+):\d+$/);
      if (now) {
        [file, line] = [now[1]!, Number(now[2])];
        const rest: string[] = [];
        for (const l of body.slice(at + 1)) {
          if (/^(?:stack backtrace:|note: )/.test(l)) break;
          rest.push(l);
        }
        message = rest.join('\n').trim();
      } else if (old) {
        [file, line, message] = [old[2]!, Number(old[3]), old[1]!];
        const tail = body.slice(at + 1).filter((l) => /^\s*(?:left|right):/.test(l));
        if (tail.length) message += `\n${tail.join('\n')}`;
      }
    }
    // #[should_panic] that did not: "note: test did not panic as expected at tests/words.rs:10:4"
    const noPanic = body.map((l) => l.match(/^note: test did not panic as expected at (.+?):(\d+):\d+$/)).find((x) => x !== null);
    if (at < 0 && noPanic) [file, line, message] = [noPanic[1]!, Number(noPanic[2]), body.find((l) => l.startsWith('note: '))!.slice(6)];
    // With RUST_BACKTRACE the test function's own frame gives the line in the test (the panic may be in the code under test).
    const leaf = name.split('::').pop()!;
    for (let k = 0; k < body.length - 1; k++) {
      if (new RegExp(`^\\s*\\d+: \\S*::${leaf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).test(body[k]!)) {
        const f = body[k + 1]!.match(/^\s+at \.?\/?(.+?):(\d+):\d+$/);
        if (f) [file, line] = [f[1]!, Number(f[2])];
        break;
      }
    }
    // assert_ne! prints left and right too, but they are not what was expected and what came.
    const equality = !/left != right/.test(message);
    const left = equality ? message.match(/^[ \t]*left:\s*(.+)$/m) : null;
    const right = equality ? message.match(/^[ \t]*right:\s*(.+)$/m) : null;
    const unq = (v: string | undefined): string | null => cleanValue(v?.replace(/^`([\s\S]*)`,?$/, '$1'));
    out.push(
      testFailure(name, {
        message: message ? clip(message, MAX_MESSAGE_CHARS) : null,
        // assert_eq!(actual, expected) by convention: left is what the code gave.
        expected: right ? unq(right[1]) : null,
        actual: left ? unq(left[1]) : null,
        file,
        line,
      }),
    );
  }
  // Tests whose stdout block was cut from a long log (or never printed) are still named by "test x ... FAILED" and the
  // closing "failures:" list.
  const names = new Set(out.map((f) => f.name));
  const listed = [...text.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => m[1]!);
  const list = text.match(/^failures:\n((?: {4}\S+\n?)+)/m);
  if (list)
    listed.push(
      ...list[1]!
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  for (const n of listed) {
    if (names.has(n) || out.length >= MAX_FAILED_TESTS) continue;
    names.add(n);
    out.push(testFailure(n));
  }
  return out;
}

export const cargoTestParser: FailureParser = {
  // "running 0 tests"
  counts: [counted(/^running (\d+) tests?$/gm)],
  id: 'cargo-test',
  marker: /^---- \S+ stdout ----$|^test \S+ \.\.\. FAILED$|^failures:$|\bpanicked at\b/,
  detect: (t) => /^---- \S+ stdout ----$/m.test(t) || /^test \S+ \.\.\. FAILED$/m.test(t),
  parse,
};
