// A pnpm workspace of three packages tested by vitest through `pnpm -r run test` (colour forced on), fixed end to end through `ratchet run` with the sandbox on (issue 29: 3, 4).
import { describe, expect, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { makePnpmWorkspace } from '../../engine/testing/real-projects/pnpm-workspace';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(
  `a pnpm workspace of three packages, \`pnpm -r run test\` with colour forced on${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`,
  () => {
    it("is fixed on the retry that was told vitest's failure as text: pnpm's prefix removed, the test's file from the repository root, no escape byte", async (ctx) => {
      await expectRealProjectFixed(ctx, makePnpmWorkspace, (p, run) => {
        const retry = run.requests[p.attempts[0].length]!.lastUserText;
        expect(retry).not.toContain('\u001b');
        // The parsed entry: vitest's own name for the test (pnpm's prefix gone), its file from the repository root.
        const parsed = retry.slice(retry.indexOf('<untrusted source="parsed failures">'), retry.indexOf('</untrusted>'));
        expect(parsed).toContain(`- **test/select.test.ts > select > ${p.attempt1FailingTest}**`);
        expect(parsed).toMatch(/Location: packages\/prompts\/test\/select\.test\.ts:\d+/);
        expect(parsed).not.toContain('packages/prompts test:');
      });
    }, 600_000);
  },
);
