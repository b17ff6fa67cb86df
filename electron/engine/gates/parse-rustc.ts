// Rust compiler errors (rustc, cargo build/test/check/clippy): "error[E0308]: mismatched types" then " --> src/lib.rs:2:25".
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

export const rustcParser: FailureParser = {
  id: 'rustc',
  marker: /^error(?:\[E\d+\])?: |^[ \t]*--> \S+:\d+:\d+/,
  detect: (t) => /^error(?:\[E\d+\])?: /m.test(t) && /^[ \t]*--> \S+:\d+:\d+/m.test(t),
  parse: (t) => {
    const out: FailedTest[] = [];
    for (const m of t.matchAll(/^error(?:\[(E\d+)\])?: (.+)\n\s*--> (.+?):(\d+):(\d+)/gm)) {
      if (out.length >= MAX_FAILED_TESTS) break;
      out.push(compileError({ file: m[3]!, line: Number(m[4]), column: Number(m[5]), code: m[1] ?? null, message: m[2]! }));
    }
    return out;
  },
};
