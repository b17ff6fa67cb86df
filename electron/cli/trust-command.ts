// `ratchet trust <repo> [--workflow <file>]`: trust the repository's workflow file (or the one named) as it is now, list what is trusted (--list), or revoke it (--revoke).
import { type Engine, trustLines } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdTrust(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    list: { type: 'boolean' },
    revoke: { type: 'boolean' },
    json: { type: 'boolean' },
    workflow: { type: 'string', short: 'w' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet trust` takes exactly one repository path.');
  if (values.list && values.revoke) throw new UsageError('`ratchet trust` takes --list or --revoke, not both.');
  const repoArg = positionals[0] as string;
  const out = (s: string) => io.stdout.write(`${s}\n`);
  if (values.revoke) {
    const r = await engine.revokeTrust(repoArg);
    if (values.json) out(JSON.stringify(r));
    else
      out(
        r.revoked
          ? `Revoked trust in ${r.repo} (${r.revoked} workflow file${r.revoked === 1 ? '' : 's'}): its workflow asks again before it runs, retry and resume of its runs included.`
          : `Nothing was trusted in ${r.repo}.`,
      );
    return 0;
  }
  if (values.list) {
    const r = await engine.listTrust(repoArg);
    if (values.json) out(JSON.stringify(r.entries, null, 2));
    else if (!r.entries.length) out(`Nothing is trusted in ${r.repo}.`);
    else for (const e of r.entries) out(`${e.file}  sha256 ${e.sha256}  trusted ${e.trustedAt}`);
    return 0;
  }
  // The user named the repository and asked to trust it: record the file's content as it is now, and say what it runs.
  // Trusting runs nothing: a workflow with no gate is trusted as it is (`ratchet run` still refuses it without --no-gates).
  // --workflow: a file the user names (what a run through `ratchet mcp` or the app names), trusted for this repository.
  const named = values.workflow as string | undefined;
  const prepared = await engine.prepareRun({ repo: repoArg, trust: true, noGates: true, ...(named ? { workflowFile: named, repoWorkflow: true } : {}) });
  const commands = prepared.trustItems ?? [];
  if (values.json) out(JSON.stringify({ repo: prepared.repoRoot, ...prepared.trustedWorkflow, commands }, null, 2));
  else {
    out(`Trusted ${prepared.workflowFile} as it is now (sha256 ${prepared.trustedWorkflow?.sha256 ?? '?'}). It runs and allows:`);
    for (const line of trustLines(commands)) out(line);
    if (!commands.length) out('  (nothing)');
  }
  return 0;
}
