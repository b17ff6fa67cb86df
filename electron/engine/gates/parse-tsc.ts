// TypeScript compiler errors: "src/a.ts(3,7): error TS2322: …" and, with --pretty, "src/a.ts:3:7 - error TS2322: …".
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

export const tscParser: FailureParser = {
  id: 'tsc',
  detect: (t) => /\berror TS\d+:/.test(t),
  parse: (t) => {
    const out: FailedTest[] = [];
    for (const m of t.matchAll(/^(\S.*?)(?:\((\d+),(\d+)\): |:(\d+):(\d+) - )error (TS\d+): (.+)$/gm)) {
      if (out.length >= MAX_FAILED_TESTS) break;
      out.push(compileError({ file: m[1]!, line: Number(m[2] ?? m[4]), column: Number(m[3] ?? m[5]), code: m[6]!, message: m[7]! }));
    }
    return out;
  },
};
