// Failing tests a hand-written runner marks with ❌, in the form "❌ test_player_health: Expected 100, got 0".
import type { FailureParser } from './failure-parser';
import { testFailure } from './failure-parser';
import { clip, extractExpectedActual, MAX_FAILED_TESTS, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';

// "❌ name: message" or "❌ name" where the name is one word: "❌ 2 tests failed" is a summary, not a test.
const MARKED = /^[ \t]*❌\s*(?:(\S[^:]*?):\s+(\S.*?)|(\S+))\s*$/gm;

function parseMarkedLines(text: string): FailedTest[] {
  const out: FailedTest[] = [];
  for (const m of text.matchAll(MARKED)) {
    const name = m[1] ?? m[3]!;
    const message = m[2] ? clip(m[2], MAX_MESSAGE_CHARS) : null;
    out.push(testFailure(name, { message, ...(message ? extractExpectedActual(message) : {}) }));
    if (out.length >= MAX_FAILED_TESTS) break;
  }
  return out;
}

export const markedLinesParser: FailureParser = { id: 'cross-mark', marker: /❌/, detect: (t) => t.includes('❌'), parse: parseMarkedLines };
