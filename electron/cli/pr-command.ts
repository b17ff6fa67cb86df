// `ratchet pr <run-id>`: push a succeeded run's branch and open its pull request (or update the one already open),
// with a body written from the run; stdout the pull request's URL (--json: the run's status document with its `pr`).
import type { Engine } from '../engine/engine';
import { forgeForRun, openPull, type OpenPullResult } from '../engine/forge/open-pull';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdPr(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    base: { type: 'string' },
    draft: { type: 'boolean' },
    json: { type: 'boolean' },
    'github-repo': { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet pr` takes exactly one run id (see `ratchet list`).');
  const runId = positionals[0] as string;
  const r = await openRunPull(engine, runId, io, { base: values.base, draft: values.draft === true, repoFlag: values['github-repo'] });
  if (values.json) io.stdout.write(`${JSON.stringify(engine.status(runId), null, 2)}\n`);
  else io.stdout.write(`${r.pr.url}\n`);
  return 0;
}

/** Opens (or updates) the run's pull request, saying which on stderr; shared by `ratchet pr` and `ratchet run --pr`. */
export async function openRunPull(
  engine: Engine,
  runId: string,
  io: CliIo,
  o: { base?: string | undefined; draft: boolean; repoFlag?: string | undefined },
): Promise<OpenPullResult> {
  const forge = await forgeForRun(engine.store, runId, {
    env: io.env,
    repoFlag: o.repoFlag,
    onWait: (s, why) => io.stderr.write(`ratchet: GitHub's ${why}: waiting ${s}s\n`),
  });
  const r = await openPull(engine.store, forge, runId, { base: o.base, draft: o.draft, now: () => new Date().toISOString() });
  io.stderr.write(`${r.created ? 'Opened' : 'Updated'} pull request #${r.pr.number} (${r.pr.headBranch} → ${r.pr.baseBranch}): ${r.pr.url}\n`);
  return r;
}
