// What the schedule tests share: a workflow whose runs end at once (the tests count starts, not work) and their cleanups.
import { afterEach } from 'vitest';

/** One step whose agent changes nothing: each scheduled run ends at once, so a test counts starts, not work. */
export const NOTHING_WORKFLOW = `gates:
  plain: "true"
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 2 }
max_retries: 0
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Nothing
    prompt: Do nothing.
    gates: [plain]
`;

/** The test's cleanups, run newest first after each test (a minute allowed: workers and hosts stop gracefully). */
export function cleanupsAfterEach(): Array<() => Promise<unknown> | unknown> {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  }, 60_000);
  return cleanups;
}
