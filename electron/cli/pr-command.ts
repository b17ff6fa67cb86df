// `ratchet pr <run-id>`: push a succeeded run's branch and open its pull request (or update the one already open),
// with a body written from the run; stdout the pull request's URL (--json: the run's status document with its `pr`);
// --watch follows its checks and reviews until they decide (exit 0 green, 1 failed for good, 2 needs you); --fix ci,review
// sends failing checks and submitted reviews back to the run as rounds; --merge merges when it is safe.
import { decidingChecks, parseFix, withSavedForge, type Engine, type OpenedPull, type WatchLook } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdPr(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    base: { type: 'string' },
    draft: { type: 'boolean' },
    json: { type: 'boolean' },
    'github-repo': { type: 'string' },
    watch: { type: 'boolean' },
    fix: { type: 'string' },
    merge: { type: 'string' },
    'max-wait': { type: 'string' },
    trust: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet pr` takes exactly one run id (see `ratchet list`).');
  const runId = positionals[0] as string;
  const merge = values.merge;
  if (merge !== undefined && merge !== 'squash' && merge !== 'merge' && merge !== 'rebase')
    throw new UsageError(`--merge takes squash, merge or rebase; got \`${merge}\`.`);
  // --fix, --merge and --max-wait act while watching: each implies --watch.
  const watch = values.watch === true || values.fix !== undefined || merge !== undefined || values['max-wait'] !== undefined;
  let fix;
  try {
    fix = parseFix(values.fix, watch);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const maxWaitMs = values['max-wait'] === undefined ? undefined : durationMs(values['max-wait']);
  const r = await openRunPull(engine, runId, io, { base: values.base, draft: values.draft === true, repoFlag: values['github-repo'] });
  const code = watch ? await watchRunPull(engine, runId, r, io, { fix, merge: merge ?? null, maxWaitMs, trust: values.trust === true }) : 0;
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

/** `--max-wait 90s|10m|2h` (a bare number is seconds) in milliseconds. */
function durationMs(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(v.trim());
  if (!m) throw new UsageError(`--max-wait takes a duration: 90s, 10m, 2h (got \`${v}\`).`);
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
}

const EXIT = { done: 0, failed: 1, needs_you: 2 } as const;

/**
 * \`--watch\`: the head commit's checks and reviews until they decide, progress on stderr, the run's pr kept current;
 * failing checks and reviews sent back to the run as rounds when \`--fix\` says so. Exit as \`ratchet run\`: 0 green
 * (merged when asked), 1 failed for good, 2 needs you.
 */
async function watchRunPull(
  engine: Engine,
  runId: string,
  opened: OpenedPull,
  io: CliIo,
  o: { fix: ReadonlySet<'ci' | 'review'>; merge: 'squash' | 'merge' | 'rebase' | null; maxWaitMs: number | undefined; trust: boolean },
): Promise<number> {
  const minWaitMs = Number(io.env.RATCHET_PR_POLL_MS) > 0 ? Number(io.env.RATCHET_PR_POLL_MS) : undefined;
  const end = await engine.pulls.loop(runId, opened, {
    fix: o.fix,
    merge: o.merge,
    trust: o.trust,
    ...(minWaitMs ? { minWaitMs, maxWaitMs: minWaitMs * 8 } : {}),
    ...(o.maxWaitMs !== undefined ? { maxWaitTotalMs: o.maxWaitMs } : {}),
    onLook: (look) => io.stderr.write(`#${look.pr.number} ${look.pr.headSha.slice(0, 8)}: ${checkLine(look)}\n`),
    onProgress: (line) => io.stderr.write(`#${opened.pr.number} ${line}\n`),
  });
  io.stderr.write(`${end.say}\n`);
  return EXIT[end.end];
}

/**
 * The environment the CLI's forge client gets: its own, with the API address saved in Settings › GitHub where
 * RATCHET_GITHUB_API_URL is unset (the same helper the app reads). The token stays the environment's: the app's is in
 * the OS keychain, out of the CLI's reach.
 */
export function cliForgeEnv(engine: Engine, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return withSavedForge(env, { apiUrl: engine.settings().githubApiUrl });
}

/** Opens (or updates) the run's pull request, saying which on stderr; shared by `ratchet pr` and `ratchet run --pr`. */
export async function openRunPull(
  engine: Engine,
  runId: string,
  io: CliIo,
  o: { base?: string | undefined; draft: boolean; repoFlag?: string | undefined },
): Promise<OpenedPull> {
  const r = await engine.pulls.open(runId, {
    env: cliForgeEnv(engine, io.env),
    repoFlag: o.repoFlag,
    base: o.base,
    draft: o.draft,
    onWait: (s, why) => io.stderr.write(`ratchet: GitHub's ${why}: waiting ${s}s\n`),
  });
  io.stderr.write(`${r.created ? 'Opened' : 'Updated'} pull request #${r.pr.number} (${r.pr.headBranch} → ${r.pr.baseBranch}): ${r.pr.url}\n`);
  return r;
}
