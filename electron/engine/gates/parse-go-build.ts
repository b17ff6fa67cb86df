// Go compiler and vet errors: "./calc.go:7:17: undefined: strconv.Itoaa" under a "# package" line.
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

export const goBuildParser: FailureParser = {
  id: 'go-build',
  marker: /\.go:\d+:\d+: /,
  detect: (t) => /^(?:\.{1,2}\/)?[\w./-]*\.go:\d+:\d+: /m.test(t),
  parse: (t) => {
    const out: FailedTest[] = [];
    for (const m of t.matchAll(/^((?:\.{1,2}\/)?[\w./-]*\.go):(\d+):(\d+): (.+)$/gm)) {
      if (out.length >= MAX_FAILED_TESTS) break;
      const file = m[1]!.replace(/^\.\//, '');
      if (out.some((o) => o.file === file && o.line === Number(m[2]) && o.message === m[4])) continue; // go test repeats go vet's lines
      out.push(compileError({ file, line: Number(m[2]), column: Number(m[3]), code: null, message: m[4]! }));
    }
    return out;
  },
};
