// `ratchet init <repo>`: writes the workflow detected from the repository's files as ratchet.yml, for the developer to review.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RatchetError, isBelow, inspectRepo, detectProject, initWorkflowText, NOT_FOUND, findWorkflowFile } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdInit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { force: { type: 'boolean' }, json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet init` takes exactly one repository path.');
  const repo = await inspectRepo(positionals[0] as string);
  const existing = findWorkflowFile(repo.root);
  if (existing && !values.force) {
    throw new RatchetError(
      'workflow_exists',
      `${existing} already exists and was left as it is. Pass --force to replace it with the detected workflow (read \`git diff\` afterwards).`,
    );
  }
  // --force replaces the file the repository uses, so there is still one workflow file.
  const file = existing ?? join(repo.root, 'ratchet.yml');
  const detected = await detectProject(repo.root);
  writeFileSync(file, initWorkflowText(detected, repo.name));
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ file, replaced: existing !== null, detected }, null, 2)}\n`);
    return 0;
  }
  const out = (s: string) => io.stdout.write(`${s}\n`);
  out(`${existing ? 'Replaced' : 'Wrote'} ${file}`);
  out(`  detected: ${detected.found.map((f) => `${f.label} (${f.evidence.join(', ')})`).join('; ') || 'nothing Ratchet knows'}`);
  out(
    `  setup:    ${detected.setup.map((s) => s.run).join(' && ') || '(none)'}${detected.network.length ? `  [network: ${detected.network.map((n) => n.entry).join(', ')}]` : ''}`,
  );
  out(`  gates:    ${detected.gates.map((g) => `${g.name}: ${g.run}`).join('; ') || `(none: no test command was found; ${NOT_FOUND})`}`);
  if (detected.copy.length) out(`  copy:     ${detected.copy.map((c) => c.glob).join(', ')}`);
  for (const n of detected.notes) out(`  note: ${n}`);
  const shown = isBelow(process.cwd(), file) ? relative(process.cwd(), file) : file;
  if (!detected.gates.length) {
    // A run would be refused (nothing checks the work): the next thing to do is to write the gate.
    out(`Add a gate to ${shown} (the command that runs your tests, under \`gates:\`), then check it with \`ratchet check ${shown}\`.`);
    return 0;
  }
  // The file is the repository's own, new and not trusted yet: without a terminal a run is refused unless --trust says
  // the reviewed file is trusted as it is, so the command printed carries it (it works as printed).
  out(
    `Review it (each entry says why it was proposed), check it with \`ratchet check ${shown}\`, then run a task: \`ratchet run ${repo.root} --trust --task "<title>"\`.`,
  );
  return 0;
}
