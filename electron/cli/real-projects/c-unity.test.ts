// A C library built with CMake and tested with Unity through ctest, fixed end to end through `ratchet run` with the sandbox on (issue 29, 5). Needs RATCHET_UNITY_DIR (a checkout of ThrowTheSwitch/Unity).
import { describe, expect, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makeCUnity } from '../../engine/testing/real-projects/c-unity';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(
  `a C library built with CMake and tested with Unity through ctest${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`,
  () => {
    it("is fixed on the retry that was told Unity's failure: its test name, file:line from the repository root, expected and actual", async (ctx) => {
      await expectRealProjectFixed(ctx, makeCUnity, (p, run) => {
        const retry = run.requests[p.attempts[0].length]!.lastUserText;
        const parsed = retry.slice(retry.indexOf('<untrusted source="parsed failures">'), retry.indexOf('</untrusted>'));
        expect(parsed).toContain(p.attempt1FailingTest);
        expect(parsed).toMatch(/test\/test_ringbuf\.c:\d+/);
        expect(parsed).toMatch(/Expected: \S+/);
      });
    }, 600_000);
  },
);
