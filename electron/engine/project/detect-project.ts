// detectProject(repoRoot): recognises a repository's project from its files and proposes the workflow's setup, gates and files to copy; proposeWorkflow is the pure part.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../git/repo-git';
import { cmakeSubdirectories, detectCMake, detectGo, detectGradle, detectMake, detectMaven, detectRust } from './detect-build-tools';
import { detectNode } from './detect-node';
import { detectPython, requirementsFiles } from './detect-python';
import type { DetectedProject, EcosystemProposal, ProjectSnapshot } from './proposal';

const DETECTORS = [detectNode, detectPython, detectRust, detectGo, detectMaven, detectGradle, detectCMake] as const;

/** Files whose text detection reads (when they are committed). */
const READ = [
  'package.json',
  'pyproject.toml',
  'setup.cfg',
  'setup.py',
  'tox.ini',
  'Pipfile',
  'Cargo.toml',
  'go.mod',
  'GNUmakefile',
  'Makefile',
  'makefile',
  'gradle/wrapper/gradle-wrapper.properties',
  'CMakeLists.txt',
];
/** A manifest larger than this is not read (detection then goes by the file's name only). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** Subfolders whose entries detection looks at. */
const SUBFOLDERS = ['tests/', 'test/', 'gradle/wrapper/'];
/** `.env.example` is committed, `.env` is the developer's own: the suffixes a committed template of a local file carries. */
const TEMPLATE_SUFFIX = /^(.+)\.(example|sample|template|dist|defaults)$/;

/** Pure: the proposal for a snapshot of the repository's files. */
export function proposeWorkflow(s: ProjectSnapshot): DetectedProject {
  const found = DETECTORS.map((d) => d(s)).filter((p): p is EcosystemProposal => p !== null);
  const make = detectMake(s);
  const notes: string[] = [];
  const withGates = found.filter((p) => p.gates.length > 0);
  if (make && make.gates.length === 0) notes.push(...make.notes);
  else if (make) {
    if (withGates.length === 0) found.push(make);
    else
      notes.push(
        `${make.evidence[0]} has a \`${make.gates[0]!.run.slice('make '.length)}\` target; the gates run the tools directly. Use \`${make.gates[0]!.run}\` as the gate instead if it does more.`,
      );
  }
  // An ecosystem that proposes no gate (a package.json for tooling beside a Go module) is not set up unless it is the only one.
  const used = found.length > 1 ? found.filter((p) => p.gates.length > 0) : found;
  for (const p of found)
    if (!used.includes(p))
      notes.push(`${p.evidence[0]} (${p.label}) proposes no gate, so it is not set up; add \`${p.setup[0]?.run ?? ''}\` to setup if the tests need it.`);

  const gates: DetectedProject['gates'] = [];
  for (const p of used) {
    for (const g of p.gates) {
      const name = gates.some((x) => x.name === g.name) ? `${g.name}-${p.id}` : g.name;
      gates.push({ ...g, name });
    }
  }
  const network: DetectedProject['network'] = [];
  for (const p of used) for (const n of p.network) if (!network.some((x) => x.entry === n.entry)) network.push(n);

  const copy: DetectedProject['copy'] = [];
  for (const f of s.files) {
    const target = TEMPLATE_SUFFIX.exec(f)?.[1];
    if (target && !target.includes('/') && s.ignoredInCheckout.includes(target) && !copy.some((c) => c.glob === target)) {
      copy.push({ glob: target, why: `${f} is committed and your checkout has its own ${target}, which git ignores` });
    }
  }
  for (const f of s.ignoredInCheckout) {
    if (/^\.env(\..+)?$/.test(f) && !copy.some((c) => c.glob === f))
      notes.push(`Your checkout has ${f}, which git ignores and no committed template names: add it to copy if the tests need it.`);
  }
  if (found.length === 0) {
    notes.push(
      'No project files Ratchet knows were found (package.json, pyproject.toml, requirements.txt, Cargo.toml, go.mod, pom.xml, build.gradle, CMakeLists.txt with tests, a Makefile with a test target): write your test command as a gate.',
    );
  }
  return {
    found: found.map((p) => ({ ecosystem: p.id, label: p.label, evidence: p.evidence })),
    setup: used.flatMap((p) => p.setup),
    network,
    gates,
    copy,
    notes: [...used.flatMap((p) => p.notes), ...notes],
  };
}

/**
 * Reads what detection needs from a repository: the committed tree at `rev` (the run's worktree is made from it, so a
 * lockfile that is not committed does not count) and the checkout's ignored files that a committed template names.
 */
export async function readProjectSnapshot(repoRoot: string, rev = 'HEAD'): Promise<ProjectSnapshot> {
  const g = git(repoRoot);
  const list = async (paths: string[]) => (await g.raw(['ls-tree', '-z', '--name-only', rev, '--', ...paths])).split('\0').filter(Boolean);
  const top = await list(['.']);
  const sub = top.some((f) => SUBFOLDERS.some((d) => d.startsWith(`${f}/`))) ? await list(SUBFOLDERS) : [];
  const files = [...top, ...sub];
  const wanted = [...READ, ...requirementsFiles(top)].filter((f) => files.includes(f));
  const contents: Record<string, string> = {};
  // Only blobs of a manifest's size are read: a huge committed one would be held whole in memory.
  const read = async (paths: string[]): Promise<string[]> => {
    const sized = paths.length ? (await g.raw(['ls-tree', '-z', '-l', rev, '--', ...paths])).split('\0').filter(Boolean) : [];
    const got: string[] = [];
    for (const entry of sized) {
      const m = /^\d+ blob [0-9a-f]+ +(\d+)\t(.+)$/s.exec(entry);
      if (m && Number(m[1]) <= MAX_MANIFEST_BYTES && paths.includes(m[2]!)) {
        contents[m[2]!] = await g.raw(['cat-file', 'blob', `${rev}:${m[2]}`]);
        got.push(m[2]!);
      }
    }
    return got;
  };
  await read(wanted);
  // CMake's tests are often added in a folder the root CMakeLists.txt adds (`add_subdirectory(tests)`): those are read too, one level.
  const cmakeSubs = cmakeSubdirectories(contents['CMakeLists.txt'] ?? '').map((d) => `${d}/CMakeLists.txt`);
  files.push(...(await read(cmakeSubs)).filter((f) => !files.includes(f)));
  const candidates = readdirSync(repoRoot).filter(
    (f) => !top.includes(f) && (/^\.env(\..+)?$/.test(f) || top.some((t) => TEMPLATE_SUFFIX.exec(t)?.[1] === f)) && isFile(join(repoRoot, f)),
  );
  const ignored = candidates.length ? (await g.raw(['check-ignore', '--', ...candidates])).split('\n').filter(Boolean) : [];
  return { files, contents, ignoredInCheckout: ignored };
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Detection over the repository's base commit and checkout. */
export async function detectProject(repoRoot: string, rev = 'HEAD'): Promise<DetectedProject> {
  return proposeWorkflow(await readProjectSnapshot(repoRoot, rev));
}
