// `ratchet pr <run-id>`: push a succeeded run's branch and open its pull request (or update the one already open),
// with a body written from the run; stdout the pull request's URL (--json: the run's status document with its `pr`);
// --watch follows its checks and reviews until they decide (exit 0 green, 1 failed for good, 2 needs you).
import { decidingChecks, type Engine, type OpenedPull, type WatchEnd, type WatchLook } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdPr(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    base: { type: 'string' },
    draft: { type: 'boolean' },
    json: { type: 'boolean' },
    'github-repo': { type: 'string' },
    watch: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet pr` takes exactly one run id (see `ratchet list`).');
  const runId = positionals[0] as string;
  const r = await openRunPull(engine, runId, io, { base: values.base, draft: values.draft === true, repoFlag: values['github-repo'] });
  const code = values.watch ? await watchRunPull(engine, runId, r, io) : 0;
  if (values.json) io.stdout.write(`${JSON.stringify(engine.status(runId), null, 2)}\n`);
  else io.stdout.write(`${r.pr.url}\n`);
  return code;
}

const MARK: Record<string, string> = { success: '✓', neutral: '✓', skipped: '✓' };

function checkLine(look: WatchLook): string {
  const parts = decidingChecks(look).map(({ name, check }) =>
    !check
      ? `${name} expected`
      : check.status === 'completed'
        ? `${name} ${MARK[check.conclusion ?? ''] ?? '✗'} ${check.conclusion}`
        : `${name} … ${check.status}`,
  );
  return parts.length ? parts.join(', ') : 'no checks yet';
}

/** The watch's end as a sentence and an exit code (as \`ratchet run\`: 0 green, 1 failed for good, 2 needs you). */
function ending(end: WatchEnd): { code: number; say: string } {
  const v = end.verdict;
  const pr = `#${end.look.pr.number}`;
  if (v.kind === 'merged') return { code: 0, say: `${pr} is merged.` };
  if (v.kind === 'green') return { code: 0, say: `${pr} is green: every check that counts passed on ${end.look.pr.headSha.slice(0, 8)}.` };
  if (v.kind === 'closed') return { code: 1, say: `${pr} was closed without being merged.` };
  if (v.kind === 'failing')
    return { code: 1, say: `${pr} failed: ${v.failing.map((c) => `${c.name} (${c.conclusion})`).join(', ')} on ${end.look.pr.headSha.slice(0, 8)}.` };
  if (v.kind === 'changes_requested') return { code: 2, say: `${pr} needs you: ${v.review.author} requested changes.` };
  if (v.kind === 'no_checks') return { code: 2, say: `${pr} needs you: no check ran on ${end.look.pr.headSha.slice(0, 8)}; is CI set up for this branch?` };
  return { code: 2, say: `${pr} is still waiting.` };
}

/** \`--watch\`: the head commit's checks and reviews until they decide, progress on stderr, the run's pr kept current. */
async function watchRunPull(engine: Engine, runId: string, opened: OpenedPull, io: CliIo): Promise<number> {
  const minWaitMs = Number(io.env.RATCHET_PR_POLL_MS) > 0 ? Number(io.env.RATCHET_PR_POLL_MS) : undefined;
  const end = await engine.pulls.watch(runId, opened, {
    minWaitMs,
    onChange: (look) => io.stderr.write(`#${look.pr.number} ${look.pr.headSha.slice(0, 8)}: ${checkLine(look)}\n`),
  });
  const { code, say } = ending(end);
  io.stderr.write(`${say}\n`);
  return code;
}

/** Opens (or updates) the run's pull request, saying which on stderr; shared by `ratchet pr` and `ratchet run --pr`. */
export async function openRunPull(
  engine: Engine,
  runId: string,
  io: CliIo,
  o: { base?: string | undefined; draft: boolean; repoFlag?: string | undefined },
): Promise<OpenedPull> {
  const r = await engine.pulls.open(runId, {
    env: io.env,
    repoFlag: o.repoFlag,
    base: o.base,
    draft: o.draft,
    onWait: (s, why) => io.stderr.write(`ratchet: GitHub's ${why}: waiting ${s}s\n`),
  });
  io.stderr.write(`${r.created ? 'Opened' : 'Updated'} pull request #${r.pr.number} (${r.pr.headBranch} → ${r.pr.baseBranch}): ${r.pr.url}\n`);
  return r;
}
