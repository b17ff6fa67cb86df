// A Rust crate's real bug fixed end to end through `ratchet run` with the sandbox on (real projects are done when this passes, Rust).
import { describe, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makeRustCrate } from '../../engine/testing/real-projects/rust-crate';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(`a Rust crate with \`cargo test\` as its gate${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`, () => {
  it("is fixed on the retry that was told cargo test's failure, with the user's rustup toolchain; the checkout is as it was; the step commit holds only the fix", async (ctx) => {
    await expectRealProjectFixed(ctx, makeRustCrate);
  }, 300_000);
});
