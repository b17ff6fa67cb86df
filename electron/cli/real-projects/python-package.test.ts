// A Python package's real bug fixed end to end through `ratchet run` with the sandbox on (real projects are done when this passes, Python).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { importedFrom, makePythonPackage } from '../../engine/testing/real-projects/python-package';
import { expectRealProjectFixed } from '../testing/real-project-run';

describe.skipIf(!SANDBOX_AVAILABLE)(
  `a Python package installed editable in the developer's venv, with \`pytest\` as its gate${SANDBOX_AVAILABLE ? '' : ` (skipped: ${NO_SANDBOX_REASON})`}`,
  () => {
    it("is fixed on the retry that was told pytest's failure, the gate testing the worktree's code; the checkout and its venv are as they were; the step commit holds only the fix", async (ctx) => {
      await expectRealProjectFixed(ctx, makePythonPackage, (p) => {
        // The developer's venv still imports the package from their checkout, not from a run's worktree.
        expect(importedFrom(p.repo)).toBe(join(p.repo, 'src', 'relpick', '__init__.py'));
      });
    }, 900_000);
  },
);
