// C, C++, Objective-C, Java (javac), Kotlin and Swift compiler errors: "main.c:4:17: error: …", "Shop.java:5: error: …".
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

const LINE = /^(\S.*?\.(?:c|cc|cpp|cxx|h|hh|hpp|m|mm|java|kt|kts|swift|zig|cs)):(\d+):(?:(\d+):)? (?:fatal )?error: (.+)$/;

export const ccParser: FailureParser = {
  id: 'cc',
  marker: /:\d+:(?:\d+:)? (?:fatal )?error: /,
  detect: (t) => /\.(?:c|cc|cpp|cxx|h|hh|hpp|m|mm|java|kt|kts|swift|zig|cs):\d+:(?:\d+:)? (?:fatal )?error: /.test(t),
  parse: (t) => {
    const out: FailedTest[] = [];
    for (const l of t.split('\n')) {
      const m = l.match(LINE);
      if (!m || out.length >= MAX_FAILED_TESTS) continue;
      out.push(compileError({ file: m[1]!, line: Number(m[2]), column: m[3] ? Number(m[3]) : null, code: null, message: m[4]! }));
    }
    return out;
  },
};
