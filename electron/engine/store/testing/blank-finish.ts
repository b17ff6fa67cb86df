// What a fixture finishes an attempt with when it has nothing to record but its outcome (no error, diff or transcript).
import type { AttemptFinish } from '../store-rows';

export const BLANK_FINISH = {
  errorClass: null,
  errorMessage: null,
  summary: null,
  treeRef: null,
  treeSha: null,
  diff: null,
  failures: [],
  transcript: [],
  sessionId: null,
} satisfies Omit<AttemptFinish, 'outcome'>;
