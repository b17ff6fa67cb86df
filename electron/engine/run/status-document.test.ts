// The status document (ratchet status --json) gives each attempt the failing tests parsed from its gates.
import { describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { openDatabase } from '../store/open-store';
import { Store } from '../store/store';
import { seedRun } from '../store/testing/seed-run';
import { tempDir } from '../testing/temp-repo';
import { statusDocument } from './status-document';

describe('status document', () => {
  it('gives each attempt its parsed failing tests: name, file, line, expected, actual (issue 29 item 2)', () => {
    const store = new Store(openDatabase(tempDir()).db);
    const runId = seedRun(store, 1);
    const id = store.startAttempt({ runId, stepIndex: 1, n: 1, agentKind: 'scripted', model: null, prompt: 'p', preCommit: '0'.repeat(40) });
    const failure = { name: 'records > parses the 7320th record', message: 'boom', expected: '5', actual: '6', file: 'test/records.test.ts', line: 7321 };
    store.finishAttempt(runId, id, {
      outcome: 'failed',
      errorClass: 'test_failure',
      errorMessage: '1 test failed',
      summary: null,
      treeRef: null,
      treeSha: null,
      diff: null,
      failures: [failure],
      transcript: [],
      sessionId: null,
    });
    const doc = statusDocument(store, store.getRun(runId)!);
    const attempt = doc.steps[0]!.attempts[0]!;
    expect(attempt.failures).toEqual([{ name: failure.name, file: failure.file, line: 7321, expected: '5', actual: '6' }]);
    // It is part of the contract's schema, and an older document without it still parses.
    expect(StatusDocument.parse(JSON.parse(JSON.stringify(doc))).steps[0]!.attempts[0]!.failures).toHaveLength(1);
    const old = JSON.parse(JSON.stringify(doc)) as { steps: { attempts: Record<string, unknown>[] }[] };
    delete old.steps[0]!.attempts[0]!.failures;
    expect(StatusDocument.parse(old).steps[0]!.attempts[0]!.failures).toBeUndefined();
  });
});
