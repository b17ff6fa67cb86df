// `ratchet merge <run-id>`: land a succeeded run on its base branch (the app's Next steps, same engine code), or preview it (--dry-run).
import { type Engine, landingHandlers } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdMerge(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    'ff-only': { type: 'boolean' },
    'no-ff': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet merge` takes exactly one run id.');
  if (values['ff-only'] && values['no-ff']) throw new UsageError('`ratchet merge` takes --ff-only or --no-ff, not both.');
  const runId = positionals[0] as string;
  const h = landingHandlers(engine, 'headless');
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const p = await h['runs.mergePreview']({ runId });
  // Without a flag: a fast-forward when the base has not moved, else a merge commit.
  const mode = values['no-ff'] ? 'no-ff' : values['ff-only'] ? 'ff-only' : p.canFastForward ? 'ff-only' : 'no-ff';
  if (values['dry-run']) {
    if (values.json) out(JSON.stringify({ ...p, mode }, null, 2));
    else {
      out(
        `${p.commits.length} commit(s) of ${p.branch} would land on ${p.base} (${mode === 'ff-only' ? 'fast-forward' : 'merge commit'}${p.canFastForward ? '' : `; ${p.base} has moved since the run started`}):`,
      );
      for (const c of p.commits) out(`  ${c.sha.slice(0, 8)} ${c.subject}`);
      if (p.diffstat) out(p.diffstat);
      if (p.blocked) out(`Refused: ${p.blocked}`);
      else if (mode === 'ff-only' && !p.canFastForward) out(`Refused: ${p.base} cannot fast-forward; use --no-ff.`);
    }
    return p.blocked || (mode === 'ff-only' && !p.canFastForward) ? 1 : 0;
  }
  const r = await h['runs.merge']({ runId, mode, expectBaseTip: p.baseTip });
  if (values.json) out(JSON.stringify(r));
  else
    out(
      `${r.base} is now at ${r.commit.slice(0, 8)} (${r.mode === 'ff-only' ? 'fast-forward' : 'merge commit'}, ${p.commits.length} commit(s) of ${p.branch}).`,
    );
  return 0;
}
