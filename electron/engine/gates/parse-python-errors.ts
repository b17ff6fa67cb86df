// Python errors that stop code from loading, outside a test runner: SyntaxError/IndentationError and ImportError tracebacks.
import { userFile } from './failure-text';
import { compileError, type FailureParser } from './failure-parser';

const LOAD_ERROR = /^(SyntaxError|IndentationError|TabError|ModuleNotFoundError|ImportError): (.+)$/m;

export const pythonErrorParser: FailureParser = {
  id: 'python',
  marker: /^Traceback \(most recent call last\):|^[ \t]*File "[^"]+", line \d+|^\w*(?:Error|Exception): /,
  detect: (t) => LOAD_ERROR.test(t) && /File "[^"]+", line \d+/.test(t),
  parse: (t) => {
    const m = t.match(LOAD_ERROR);
    if (!m) return [];
    const frames = [...t.slice(0, m.index).matchAll(/File "([^"]+)", line (\d+)/g)].filter((f) => userFile(f[1]!) !== null);
    const last = frames[frames.length - 1];
    return [compileError({ file: last?.[1] ?? null, line: last ? Number(last[2]) : null, code: m[1]!, message: m[2]! })];
  },
};
