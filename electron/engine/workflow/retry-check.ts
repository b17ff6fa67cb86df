// The checks a workflow's retry list gets when it is loaded (and by `ratchet check`): an exit it always needs, entries that can never apply, overrides that cannot work.
import type { RetryEntry } from './schema';

export interface CheckMessage {
  level: 'error' | 'warning';
  entry: number | null;
  message: string;
}

/** `{name}` placeholders of a validator that its `with:` does not give, and `with:` keys it never uses. */
export function validatorInputProblems(entry: Pick<RetryEntry, 'validate' | 'with'>): { missing: string[]; unused: string[] } {
  const used = [...(entry.validate ?? '').matchAll(/\{([A-Za-z_][\w-]*)\}/g)].map((m) => m[1]!);
  const given = Object.keys(entry.with ?? {});
  return { missing: entry.with ? [...new Set(used.filter((u) => !given.includes(u)))] : [], unused: given.filter((g) => !used.includes(g)) };
}

/** What else decides whether a gate failure can be retried: the workflow's test-failure retries, when it sets them. */
export interface EntryContext {
  /** `max_retries` or `limits.test_failure` as the workflow writes them (unset: the defaults, which allow retries). */
  testFailureRetries?: number;
}

/** The retry list's safety validations for the dry run, and a warning for a list that can never retry. */
export function checkEntries(entries: readonly RetryEntry[], ctx: EntryContext = {}): CheckMessage[] {
  const out: CheckMessage[] = [];
  if (entries.length && !entries.some((e) => e.exit !== undefined)) {
    out.push({ level: 'error', entry: null, message: 'the retry list has no `exit: N` entry; add one (e.g. `- exit: 4`) so the step stops at some attempt' });
  }
  const exits = entries.map((e) => e.exit).filter((x): x is number => x !== undefined);
  const exitAt = exits.length ? Math.min(...exits) : null;
  const conditions = entries.map((e, i) => [e, i] as const).filter(([e]) => e.exit === undefined);
  const unreachable = (e: RetryEntry) => exitAt !== null && e.attempt !== undefined && e.attempt >= exitAt;
  for (const [e, i] of conditions) {
    if (unreachable(e))
      out.push({ level: 'warning', entry: i, message: `attempt ${e.attempt} is never reached: \`exit: ${exitAt}\` ends the step at attempt ${exitAt}` });
  }
  if (entries.length && exitAt !== null) {
    const why =
      exitAt <= 1
        ? `\`exit: ${exitAt}\` ends the step at its first attempt`
        : // Entries of only `attempt` (and `exit`) filter no failure: the list still retries every one until the exit (decide.ts).
          conditions.some(([e]) => e.attempt === undefined) && conditions.every(([e]) => unreachable(e))
          ? `every entry's attempt comes at or after \`exit: ${exitAt}\``
          : ctx.testFailureRetries === 0
            ? 'max_retries: 0 (or limits.test_failure: 0) leaves test failures no retry, whatever the list says'
            : null;
    if (why) out.push({ level: 'warning', entry: null, message: `this retry list can never retry: ${why}` });
  }
  entries.forEach((e, i) => {
    if (e.agent && e.session === undefined) {
      out.push({
        level: 'warning',
        entry: i,
        message: 'switches agent without `session: new`; a new agent cannot continue the old session, so it is forced to a new one',
      });
    }
    if (e.agent && e.session === 'continue') {
      out.push({
        level: 'warning',
        entry: i,
        message: 'switches agent with `session: continue`; a new agent cannot continue the old session, so it is forced to a new one',
      });
    }
    if (e.worktree === 'reset' && e.session !== 'new') {
      out.push({
        level: 'warning',
        entry: i,
        message: '`worktree: reset` with a continued session: the agent remembers changes that are no longer in the worktree; consider `session: new`',
      });
    }
    if (e.validate !== undefined && e.with !== undefined) {
      const p = validatorInputProblems(e);
      if (p.missing.length)
        out.push({
          level: 'warning',
          entry: i,
          message: `the validator uses ${p.missing.map((m) => `{${m}}`).join(', ')}, which \`with\` does not give; it is left as written`,
        });
      if (p.unused.length)
        out.push({
          level: 'warning',
          entry: i,
          message: `\`with\` gives ${p.unused.join(', ')}, which the validator never uses (write {${p.unused[0]}} in it)`,
        });
    }
    if (e.exit !== undefined && (e.agent || e.session || e.worktree || e.prompt)) {
      out.push({ level: 'warning', entry: i, message: 'an `exit` entry ends the step; its overrides are never used' });
    }
  });
  return out;
}
