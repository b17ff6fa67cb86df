// A TypeScript library whose test formats and lints the whole tree, fixed end to end through `ratchet run` with the sandbox on: the sandbox leaves no file of its own where the project's tools look (issue 29, 7).
import { describe, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makeTsLintLibrary } from '../../engine/testing/real-projects/ts-lint-library';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(
  `a TypeScript library whose \`npm test\` runs \`prettier --check . && eslint . && vitest run\`${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`,
  () => {
    it("passes prettier and eslint over the whole tree in the sandbox as in the checkout, and is fixed on the retry that was told vitest's failure", async (ctx) => {
      await expectRealProjectFixed(ctx, makeTsLintLibrary);
    }, 600_000);
  },
);
