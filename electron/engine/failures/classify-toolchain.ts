// A toolchain a version manager (corepack, pyenv, nvm, fnm, volta, asdf, mise, rustup) cannot find: a missing tool,
// named as such, never a network failure, though the manager's own attempt to download it is what failed.
import { stripAnsi } from '../gates/failure-text';
import { lineAt, result, type Classification, type SideMessage } from './classify-result';

/** One manager's "not installed" as it prints it: the tool and version it wanted, from the match. */
interface Shape {
  manager: string;
  re: RegExp;
  tool: (m: RegExpMatchArray) => string;
  /** What installs it outside Ratchet, so the sandbox finds it (read-only) in the manager's folder. */
  install: (m: RegExpMatchArray) => string;
  /** What the manager did, for the message; default its own line. */
  said?: string;
}

// corepack fetches the package manager `packageManager` names into its cache on first use: a download (or a write
// into its read-only cache) inside a gate means it is not there.
// Its requests: the version's metadata (`/pnpm/9.15.9`), its tarball (`/pnpm/-/pnpm-9.15.9.tgz`), yarn's berry CLI.
const COREPACK_URL =
  /\/(pnpm|yarn|npm)\/(?:-\/(?:pnpm|yarn|npm)-)?(\d+\.\d+\.\d+[\w.+-]*?)(?:\.tgz)?(?=[;\s'"]|$)|\/@yarnpkg\/cli-dist\/-\/cli-dist-(\d[^/\s;]*?)\.tgz/m;
const corepackTool = (m: RegExpMatchArray): string => {
  const url = m[0].match(COREPACK_URL) ?? m.input?.match(COREPACK_URL);
  if (!url) return "the package manager package.json's packageManager names";
  return url[1] ? `${url[1]} ${url[2]}` : `yarn ${url[3]}`;
};

const SHAPES: Shape[] = [
  {
    manager: 'corepack',
    re: /^.*(?:Corepack is about to download|Error when performing the request to|Network access disabled by the environment; can't reach|EROFS: read-only file system, \w+ '[^']*\/corepack\/).*$/m,
    tool: corepackTool,
    said: 'corepack tried to download it',
    install: () => "`corepack install` in your checkout (it reads package.json's packageManager)",
  },
  {
    manager: 'pyenv',
    re: /^.*pyenv: version [`']([^'`]+)' is not installed.*$/m,
    tool: (m) => `Python ${m[1]}`,
    install: (m) => `\`pyenv install ${m[1]}\``,
  },
  {
    manager: 'nvm',
    re: /^.*N\/A: version "([^"]+?)(?: -> N\/A)?" is not yet installed.*$/m,
    tool: (m) => `Node ${m[1]}`,
    install: (m) => `\`nvm install ${m[1]}\``,
  },
  {
    manager: 'fnm',
    re: /^.*Requested version (\S+) is not currently installed.*$/m,
    tool: (m) => `Node ${m[1]}`,
    install: (m) => `\`fnm install ${m[1]}\``,
  },
  {
    manager: 'asdf',
    re: /^.*(?:No preset version installed for command (\S+)|No version is set for command (\S+)|version (\S+) is not installed for (\S+)).*$/m,
    tool: (m) => (m[3] ? `${m[4]} ${m[3]}` : (m[1] ?? m[2]!)),
    install: () => '`asdf install` in your checkout',
  },
  {
    manager: 'mise',
    re: /^.*mise (?:ERROR|WARN)\s+(?:.*?\b)?([\w.-]+@[\w.-]+)\b.*\bnot installed.*$/m,
    tool: (m) => m[1]!,
    install: () => '`mise install` in your checkout',
  },
  {
    manager: 'volta',
    re: /^.*Volta error: Could not (?:download|fetch|unpack) ([\w@.-]+).*$/m,
    tool: (m) => m[1]!,
    install: (m) => `\`volta install ${m[1]}\``,
  },
  {
    manager: 'rustup',
    re: /^.*(?:toolchain '([^']+)' is not installed|info: syncing channel updates for '([^']+)').*$/m,
    tool: (m) => `the Rust toolchain ${m[1] ?? m[2]}`,
    install: (m) => `\`rustup toolchain install ${m[1] ?? m[2]}\``,
  },
];

/** The first version manager's "not installed" in `out` (outside `side` lines), with what installs the toolchain. */
function found(out: string, side: SideMessage): { shape: Shape; m: RegExpMatchArray } | null {
  for (const shape of SHAPES) {
    const m = out.match(shape.re);
    if (m && !side(lineAt(out, m.index ?? 0))) return { shape, m };
  }
  return null;
}

function fixOf(s: Shape, m: RegExpMatchArray): string {
  return `Install it outside Ratchet with ${s.install(m)}, then start the run again: ${s.manager} keeps it in your home, which Ratchet gives the sandbox read-only. No network entry helps: inside the sandbox ${s.manager} cannot write there.`;
}

/** What to do about a toolchain a version manager could not find in `output`, or null: the pre-run check's advice. */
export function toolchainFix(output: string): string | null {
  const f = found(stripAnsi(output).replace(/\r\n?/g, '\n'), () => false);
  return f ? `No agent attempt can fix it: ${f.shape.tool(f.m)} is not installed where ${f.shape.manager} keeps it. ${fixOf(f.shape, f.m)}` : null;
}

/**
 * A toolchain the command's version manager could not find in its folder (the user's, read-only in the sandbox), or
 * null. Its download attempt fails at the sandbox's network, but no network entry helps: the sandbox cannot write the
 * manager's folder, and setup is often skipped. What helps is installing it outside Ratchet.
 */
export function missingToolchain(out: string, side: SideMessage): Classification | null {
  const f = found(out, side);
  if (!f) return null;
  return result('missing_dependency', `${f.shape.tool(f.m)} is not installed where ${f.shape.manager} keeps it (${f.shape.said ?? f.m[0].trim()})`, [
    fixOf(f.shape, f.m),
  ]);
}
