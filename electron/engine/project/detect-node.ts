// Detection for JavaScript/TypeScript projects: the package manager (packageManager field, else the lockfile), its install, the test and typecheck scripts.
import { has, type EcosystemProposal, type ProjectSnapshot } from './proposal';

type Pm = 'npm' | 'pnpm' | 'yarn' | 'bun';

const LOCKFILES: ReadonlyArray<readonly [string, Pm]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

/** What `npm init -y` writes as the test script: a placeholder that always fails, not a test suite. */
const NPM_PLACEHOLDER_TEST = /no test specified/;
const TYPECHECK_SCRIPTS = ['typecheck', 'type-check', 'check-types', 'types:check', 'tsc', 'check:types', 'types'];

interface PackageJson {
  packageManager?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
}

function install(pm: Pm, locked: boolean, yarnBerry: boolean): string {
  if (pm === 'npm') return locked ? 'npm ci' : 'npm install';
  if (pm === 'pnpm') return locked ? 'pnpm install --frozen-lockfile' : 'pnpm install';
  if (pm === 'bun') return locked ? 'bun install --frozen-lockfile' : 'bun install';
  if (!locked) return 'yarn install';
  return yarnBerry ? 'yarn install --immutable' : 'yarn install --frozen-lockfile';
}

/** `<pm> run <script>`; `bun test` would run bun's own runner, not the script, so bun always says `run`. */
function runScript(pm: Pm, script: string): string {
  if (script === 'test' && pm !== 'bun') return `${pm} test`;
  return `${pm} run ${script}`;
}

export function detectNode(s: ProjectSnapshot): EcosystemProposal | null {
  if (!has(s, 'package.json')) return null;
  const notes: string[] = [];
  let pkg: PackageJson = {};
  try {
    const parsed: unknown = JSON.parse(s.contents['package.json'] ?? '');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) pkg = parsed as PackageJson;
  } catch {
    notes.push('package.json is not valid JSON: its scripts could not be read.');
  }
  const declared = typeof pkg.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@(\d+)?/.exec(pkg.packageManager) : null;
  const locks = LOCKFILES.filter(([f]) => has(s, f));
  let pm: Pm;
  const evidence = ['package.json'];
  let pmWhy: string;
  if (declared) {
    pm = declared[1] as Pm;
    pmWhy = `package.json "packageManager": "${String(pkg.packageManager)}"`;
  } else if (locks.length) {
    pm = locks[0]![1];
    pmWhy = locks[0]![0];
    if (new Set(locks.map(([, p]) => p)).size > 1)
      notes.push(
        `Lockfiles of more than one package manager are committed (${locks.map(([f]) => f).join(', ')}); ${pm} was chosen. Set "packageManager" in package.json to say which.`,
      );
  } else {
    pm = 'npm';
    pmWhy = 'package.json without a lockfile';
  }
  const lock = locks.find(([, p]) => p === pm)?.[0];
  if (lock) evidence.push(lock);
  const yarnBerry = pm === 'yarn' && (has(s, '.yarnrc.yml') || (declared !== null && Number(declared[2] ?? '1') >= 2));
  const setup = [
    {
      run: install(pm, lock !== undefined, yarnBerry),
      why: lock ? `${pmWhy}: installs exactly the locked versions` : `${pmWhy}: no lockfile committed, so versions are resolved afresh`,
    },
  ];
  if (!lock) notes.push(`No ${pm} lockfile is committed: each worktree resolves dependency versions again. Commit the lockfile for repeatable installs.`);

  const scripts = pkg.scripts ?? {};
  const gates: EcosystemProposal['gates'] = [];
  const test = typeof scripts.test === 'string' ? scripts.test : null;
  if (test && !NPM_PLACEHOLDER_TEST.test(test)) gates.push({ name: 'test', run: runScript(pm, 'test'), why: `package.json scripts.test: ${test}` });
  else if (test)
    notes.push(
      'package.json\'s test script is npm\'s placeholder ("no test specified"): no test gate proposed. Write a test script, or add your test command as a gate.',
    );
  else notes.push('package.json has no test script: no test gate proposed.');
  const typecheck = TYPECHECK_SCRIPTS.find((n) => typeof scripts[n] === 'string');
  if (typecheck) gates.push({ name: 'typecheck', run: runScript(pm, typecheck), why: `package.json scripts.${typecheck}: ${String(scripts[typecheck])}` });
  else if (has(s, 'tsconfig.json')) {
    const deps = { ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) };
    if ('typescript' in deps)
      notes.push('TypeScript (tsconfig.json) without a typecheck script: add a gate running `tsc --noEmit` if the project type-checks cleanly.');
  }
  if (has(s, 'tsconfig.json')) evidence.push('tsconfig.json');
  return {
    id: 'node',
    label: pm,
    evidence,
    setup,
    network: [{ entry: 'registry:npm', why: `${pm} installs packages from the registry your npm configuration names` }],
    gates,
    notes,
  };
}
