// TypeScript compiler errors: "src/a.ts(3,7): error TS2322: …" and, with --pretty, "src/a.ts:3:7 - error TS2322: …",
// with the indented lines that explain them ("  Type 'string' is not assignable to type 'number'.").
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

const ERROR = /^(\S.*?)(?:\((\d+),(\d+)\): |:(\d+):(\d+) - )error (TS\d+): (.+)$/;

export const tscParser: FailureParser = {
  id: 'tsc',
  marker: /\berror TS\d+:/,
  detect: (t) => /\berror TS\d+:/.test(t),
  parse: (t) => {
    const out: FailedTest[] = [];
    const lines = t.split('\n');
    for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
      const m = lines[i]!.match(ERROR);
      if (!m) continue;
      const more: string[] = [];
      // Plain output indents the elaboration; --pretty follows the error with a code frame ("4 console.log(…)").
      for (let j = i + 1; j < lines.length && /^ {2,}\S/.test(lines[j]!) && more.length < 8; j++) more.push(lines[j]!.trim());
      const message = [m[7]!, ...more].join('\n');
      out.push(compileError({ file: m[1]!, line: Number(m[2] ?? m[4]), column: Number(m[3] ?? m[5]), code: m[6]!, message }));
    }
    return out;
  },
};
