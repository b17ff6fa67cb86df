// A Go module's real bug fixed end to end through `ratchet run` with the sandbox on (real projects are done when this passes, Go).
import { describe, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makeGoModule } from '../../engine/testing/real-projects/go-module';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(`a Go module with \`go test ./...\` as its gate${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`, () => {
  it("is fixed on the retry that was told go test's failure; the checkout is as it was; the step commit holds only the fix", async (ctx) => {
    await expectRealProjectFixed(ctx, makeGoModule);
  }, 300_000);
});
