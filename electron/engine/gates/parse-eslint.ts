// ESLint errors from its stylish (default) and compact/unix formatters: file, line:col, message and rule id.
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

function parse(text: string): FailedTest[] {
  const out: FailedTest[] = [];
  let file: string | null = null;
  for (const l of text.split('\n')) {
    if (out.length >= MAX_FAILED_TESTS) break;
    // stylish: a path on its own line, then "  1:7  error  message  rule-id"
    if (/^\S.*\.(?:[cm]?[jt]sx?|vue|svelte|astro|json|md)$/.test(l.trim()) && !/\s{2}/.test(l.trim())) {
      file = l.trim();
      continue;
    }
    let m = l.match(/^\s+(\d+):(\d+)\s+error\s+(.+?)(?:\s{2,}(\S+))?\s*$/);
    if (m && file) {
      out.push(compileError({ file, line: Number(m[1]), column: Number(m[2]), code: m[4] ?? null, message: m[3]! }));
      continue;
    }
    // compact: "/a/b.js: line 5, col 20, Error - 'nme' is not defined. (no-undef)"; unix: "/a/b.js:5:20: msg [Error/no-undef]"
    m = l.match(/^(\S.*?): line (\d+), col (\d+), Error - (.+?)(?: \(([\w@/-]+)\))?$/) ?? null;
    if (m) {
      out.push(compileError({ file: m[1]!, line: Number(m[2]), column: Number(m[3]), code: m[5] ?? null, message: m[4]! }));
      continue;
    }
    m = l.match(/^(\S.*?):(\d+):(\d+): (.+?) \[Error(?:\/([\w@/-]+))?\]$/);
    if (m) out.push(compileError({ file: m[1]!, line: Number(m[2]), column: Number(m[3]), code: m[5] ?? null, message: m[4]! }));
  }
  return out;
}

export const eslintParser: FailureParser = {
  id: 'eslint',
  marker: /^[ \t]*\d+:\d+[ \t]+error[ \t]|^[ \t]*✖ \d+ problems?|, Error - /,
  detect: (t) => /^[ \t]*✖ \d+ problems? \(\d+ errors?/m.test(t) || /, Error - /.test(t) || /\[Error\/[\w@/-]+\]$/m.test(t),
  parse,
};
