// A TypeScript library's real bug fixed end to end through `ratchet run` with the sandbox on (real projects are done when this passes, npm).
import { describe, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makeNpmLibrary } from '../../engine/testing/real-projects/npm-library';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(
  `a TypeScript library with its dependencies installed by npm and \`npm test\` (vitest) as its gate${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`,
  () => {
    it("is fixed on the retry that was told vitest's failure, though node_modules is gitignored; the checkout is as it was; the step commit holds only the fix", async (ctx) => {
      await expectRealProjectFixed(ctx, makeNpmLibrary);
    }, 600_000);
  },
);
