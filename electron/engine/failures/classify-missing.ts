// Whose a missing module, package or command is. The environment's (missing_dependency, never retried) when the base
// commit lacks it too or a manifest declares it but the worktree does not have it installed; the code's (a retried
// compilation_error, saying so) when it is the project's own file or package, or the attempt's own change imported it.
import type { FailedTest } from '../gates/parse-failures';
import { TEST_FILE } from '../gates/failure-text';
import type { GateResult } from '../gates/run-gate';
import { addedImport, declaredIn, goModulePath, INSTALL_COMMAND, presentManifest, type ClassifyContext, type Ecosystem } from './classify-context';
import { firstMatch, lineAt, locationSuffix, result, type Classification, type SideMessage } from './classify-result';

type Kind = Ecosystem | 'command';

/** One missing thing the output names: what, as the tool said it, and where in the output. */
interface MissingItem {
  kind: Kind;
  name: string;
  said: string;
  index: number;
}

function isPackageSpecifier(spec: string): boolean {
  return !/^(?:\.{1,2}\/|\/|[A-Za-z]:[\\/]|file:)/.test(spec) && spec !== '.' && spec !== '..';
}

const LIBRARY_DIR = /[\\/](?:site|dist)-packages[\\/]/;
const SHELL_NOT_FOUND = /^(?:\S*\/)?(?:sh|dash|bash): (?:line )?\d+: ([^\s:'"`]+): (?:command )?not found\s*$/m;

/** A program the shell could not find: a shell's own line is trusted whatever the exit code (make turns 127 into 2). */
function missingCommand(out: string, exitCode: number | null): MissingItem | null {
  const shell = out.match(SHELL_NOT_FOUND);
  // Lookbehinds here and below start a match only at a token's first character: without them a long token makes the
  // engine retry from each of its characters, and a 128 KB line of minified code takes seconds.
  const notFound = shell ?? out.match(/(?<![^\s:'"`])([^\s:'"`]+): (?:command )?not found\s*$/m);
  if (notFound && (shell || exitCode === 127 || /: command not found\s*$/m.test(out))) {
    return { kind: 'command', name: notFound[1]!, said: 'command not found', index: notFound.index ?? 0 };
  }
  return null;
}

const GO_MISSING = [
  /no required module provides package ([^\s;:]+)/, // Go modules
  /missing go\.sum entry for module providing package ([^\s;:]+)/,
  /cannot find module providing package ([^\s;:]+)/, // GOPROXY=off, GOFLAGS=-mod=mod
  /cannot find package "([^"]+)"/, // Go, GOPATH era
];

/** The packages and modules the output says are missing, in the order the classifier weighs them. */
function missingModules(out: string): Array<MissingItem & { relative?: boolean }> {
  const items: Array<MissingItem & { relative?: boolean }> = [];
  for (const m of out.matchAll(/Cannot find (?:module|package) ['"]([^'"]+)['"]/g)) {
    const relative = !isPackageSpecifier(m[1]!);
    items.push({ kind: 'npm', name: m[1]!, said: `Cannot find module '${m[1]}'`, index: m.index ?? 0, relative });
  }
  for (const m of out.matchAll(/Failed to (?:resolve|load) (?:import|url) "?([^"\s]+)"?/g)) {
    if (isPackageSpecifier(m[1]!)) items.push({ kind: 'npm', name: m[1]!, said: `Cannot resolve import '${m[1]}'`, index: m.index ?? 0 });
  }
  const py = out.match(/(?:ModuleNotFoundError|ImportError): No module named ['"]?([\w.]+)['"]?/) ?? out.match(/No module named ['"]?([\w.]+)['"]?/);
  if (py) items.push({ kind: 'pypi', name: py[1]!, said: `No module named '${py[1]}'`, index: py.index ?? 0 });
  const go = firstMatch(out, GO_MISSING);
  if (go) items.push({ kind: 'go', name: go[1]!, said: go[0], index: go.index ?? 0 });
  return items;
}

/**
 * The modules, packages and commands a run's output says are missing (npm packages, Python modules, Go packages,
 * programs), as the classifier names them: what a baseline run hands the classifier as `BaselineFacts.missing`.
 * A relative module (a file of the project's own) is never listed.
 */
export function missingNames(output: string): string[] {
  const out = output.replace(/\r\n?/g, '\n');
  const names = [missingCommand(out, null), ...missingModules(out).filter((m) => !m.relative)].filter((m): m is MissingItem => m !== null).map((m) => m.name);
  return [...new Set(names)];
}

/** The file and line of the project code that asked for the missing thing: a stack frame, a compiler's line. */
function whereAsked(out: string, item: MissingItem): { file: string; line: string } | null {
  const line = lineAt(out, item.index);
  const own =
    line.match(/^((?:\.{1,2}\/)?[\w./-]*\.go):(\d+):\d+:/) ?? line.match(/^(.+?)\((\d+),\d+\): error TS\d+/) ?? line.match(/^(.+?):(\d+):\d+ - error TS\d+/);
  if (own) return { file: own[1]!, line: own[2]! };
  if (item.kind === 'npm') {
    const after = out.slice(item.index, item.index + 4000);
    const frame = after.match(/^[ \t]+at (?:.*? \()?((?:file:\/\/)?\/[^\s():]+|[A-Za-z]:\\[^\s():]+):(\d+):\d+\)?$/m);
    if (frame && !/node_modules|^node:/.test(frame[1]!)) return { file: frame[1]!.replace(/^file:\/\//, ''), line: frame[2]! };
    const from = after.match(/ imported from (\S+)/);
    if (from) return { file: from[1]!.replace(/^file:\/\//, ''), line: '' };
  }
  if (item.kind === 'pypi') {
    const frame = importingFrame(out.slice(0, item.index), item.name);
    if (frame) return frame;
  }
  return null;
}

/**
 * The last project frame printed before a Python import error (pytest "tests/x.py:1: in <module>" or a traceback's
 * 'File "tests/x.py", line 1'), when its statement imports `module`; else null.
 */
function importingFrame(before: string, module: string): { file: string; line: string } | null {
  const frames = [...before.matchAll(/^(\S+\.py):(\d+): in \S+\n\s+(.+)$|^[ \t]*File "([^"]+)", line (\d+), in \S+\n\s+(.+)$/gm)].filter(
    (m) => !LIBRARY_DIR.test(m[1] ?? m[4]!) && !/<frozen|\/lib\/python[\d.]+\//.test(m[1] ?? m[4]!),
  );
  const last = frames[frames.length - 1];
  if (!last) return null;
  const statement = (last[3] ?? last[6]!).trim();
  const top = module.split('.')[0]!;
  const imports = new RegExp(`^(?:from\\s+${top}(?:\\.[\\w.]+)?\\s+import\\b|import\\s+${top}\\b)`).test(statement);
  return imports ? { file: last[1] ?? last[4]!, line: last[2] ?? last[5]! } : null;
}

/** A module path of the Go module itself: under internal/, without a host, or under go.mod's own module path. */
function ownGoPackage(pkg: string, ctx: ClassifyContext): boolean {
  if (/\/internal(?:\/|$)/.test(pkg) || !pkg.split('/')[0]!.includes('.')) return true;
  const mod = goModulePath(ctx.manifest);
  return mod !== null && (pkg === mod || pkg.startsWith(`${mod}/`));
}

function inBaseline(ctx: ClassifyContext, item: MissingItem): boolean {
  const missing = ctx.baseline?.missing ?? [];
  const top = (n: string) => (item.kind === 'pypi' ? n.split('.')[0] : n);
  return missing.some((m) => m === item.name || (item.kind === 'pypi' && top(m) === top(item.name)));
}

function installHint(eco: Ecosystem): string {
  return `Install the dependencies in the worktree's setup: setup: { run: "${INSTALL_COMMAND[eco]}", network: [registry:${eco}] } in ratchet.yml; retrying the agent will not help.`;
}

const BASELINE_HINT =
  "It was already missing on the base commit, before any change of this run: install it in the worktree's setup (ratchet.yml setup:), then retry or resume.";

/** The package a specifier names ("lodash/fp" → "lodash", "@scope/pkg/x" → "@scope/pkg"), a Python module's top level. */
function packageOf(item: MissingItem): string {
  if (item.kind === 'npm') return item.name.startsWith('@') ? item.name.split('/').slice(0, 2).join('/') : item.name.split('/')[0]!;
  if (item.kind === 'pypi') return item.name.split('.')[0]!;
  return item.name;
}

/** The environment's or the code's, for a missing package or module that is not the project's own. */
function packageVerdict(out: string, item: MissingItem, ctx: ClassifyContext, fallback: () => Classification): Classification {
  const eco = item.kind as Ecosystem;
  if (inBaseline(ctx, item)) return result('missing_dependency', `The base commit fails the same way: ${item.said}`, [BASELINE_HINT]);
  const declared = declaredIn(eco, item.name, ctx.manifest);
  if (declared) {
    return result('missing_dependency', `'${packageOf(item)}' is declared in ${declared} but not installed in the worktree (${item.said})`, [installHint(eco)]);
  }
  if (addedImport(ctx.diff, eco, item.name)) {
    const at = whereAsked(out, item);
    const manifest = presentManifest(eco, ctx.manifest);
    return result(
      'compilation_error',
      `The attempt's change imports '${item.name}'${at ? locationSuffix(at.file, at.line) : ''}, which is not installed${manifest ? ` and not declared in ${manifest}` : ''} (${item.said})`,
      [
        `Your change imports '${item.name}', which exists nowhere here: write it in the project, import something that exists, or declare it in ${manifest ?? 'the manifest'} (the setup then installs it).`,
      ],
    );
  }
  return fallback();
}

function moduleVerdict(out: string, item: MissingItem & { relative?: boolean }, ctx: ClassifyContext, parsed: readonly FailedTest[]): Classification | null {
  if (item.kind === 'npm' && item.relative) {
    // A file of the project that is not there: the code's to write, unless a compiler's or the failing tests' own
    // account of it was parsed (tsc's TS2307, a test suite that failed to run), which then says it better.
    if (parsed.length > 0) return null;
    const at = whereAsked(out, item);
    return result('compilation_error', `${item.said}${at ? locationSuffix(at.file, at.line) : ''}: no such file in the project`, [
      `Write the module '${item.name}' or fix the path in the require/import (a relative path starts from the file that imports it).`,
    ]);
  }
  if (item.kind === 'go' && ownGoPackage(item.name, ctx)) {
    const at = whereAsked(out, item);
    return result('compilation_error', `Package ${item.name} of this module does not exist yet${at ? locationSuffix(at.file, at.line) : ''}: ${item.said}`, [
      `Write the package ${item.name} (or fix the import path); it belongs to this module, so go get cannot fetch it.`,
    ]);
  }
  return packageVerdict(out, item, ctx, () => {
    if (item.kind === 'pypi') {
      // A test that imports the module it tests, before the agent has written it, is the agent's to fix.
      const frame = importingFrame(out.slice(0, item.index), item.name);
      if (frame && TEST_FILE.test(frame.file)) {
        return result('compilation_error', `${frame.file}:${frame.line} imports '${item.name}', which does not exist yet (${item.said})`, [
          `Write the module '${item.name}' the test imports (or fix the import's name).`,
        ]);
      }
      return result('missing_dependency', item.said);
    }
    if (item.kind === 'go') return result('missing_dependency', `Missing package ${item.name}: ${item.said}`);
    return result('missing_dependency', item.said);
  });
}

/**
 * A missing command, script, library, module or package, and whose it is. `failures` are the parsed failures: a
 * missing thing outside the failing tests among them (`side`) does not decide the attempt.
 */
export function missingDependency(r: GateResult, out: string, ctx: ClassifyContext, failures: readonly FailedTest[], side: SideMessage): Classification | null {
  const tests = failures.filter((f) => f.kind !== 'compile');
  if (r.spawnError) return result('missing_dependency', `Could not start the gate command: ${r.spawnError}`);
  const cmd = missingCommand(out, r.exitCode);
  if (cmd && !side(lineAt(out, cmd.index))) {
    const said = `\`${cmd.name}\` is not installed or not on PATH (command not found)`;
    if (inBaseline(ctx, cmd)) return result('missing_dependency', `The base commit fails the same way: ${said}`, [BASELINE_HINT]);
    const declared = declaredIn('command', cmd.name, ctx.manifest);
    if (declared) {
      return result('missing_dependency', `\`${cmd.name}\` is declared in ${declared} but not installed in the worktree (command not found)`, [
        installHint(declared === 'package.json' ? 'npm' : 'pypi'),
      ]);
    }
    return result('missing_dependency', said, [`Check that \`${cmd.name}\` is installed and on the PATH the gate runs with.`]);
  }
  const script =
    out.match(/^npm (?:ERR!|error) [Mm]issing script:? "?([^"\s]+)"?/m) ??
    out.match(/ERR_PNPM_NO_SCRIPT\s+Missing script:? "?([^"\s]+)"?/) ??
    out.match(/^error Command "([^"]+)" not found\./m); // yarn 1
  if (script && !side(script[0])) {
    return result('missing_dependency', `package.json has no "${script[1]}" script`, [
      `Add a "${script[1]}" script to package.json or change the gate's command.`,
    ]);
  }
  const so = out.match(/(?<![\w.+-])([\w.+-]+\.so(?:\.[\w.]+)?): cannot open shared object file/);
  if (so && !side(lineAt(out, so.index ?? 0))) {
    return result('missing_dependency', `Shared library ${so[1]} is not installed (cannot open shared object file)`, [
      `Install the system package that provides ${so[1]}.`,
    ]);
  }
  for (const item of missingModules(out)) {
    if (side(lineAt(out, item.index))) continue;
    const c = moduleVerdict(out, item, ctx, failures);
    if (c) return c;
  }
  // A name missing from an installed package means the wrong version is installed; from project code it is a bug.
  const pyName = out.match(/ImportError: cannot import name '([^']+)' from '([^']+)' \(([^)]*)\)/);
  if (pyName && LIBRARY_DIR.test(pyName[3]!) && !side(pyName[0])) {
    const pkg = pyName[2]!.split('.')[0]!;
    return result('missing_dependency', `cannot import name '${pyName[1]}' from '${pyName[2]}': the installed ${pkg} does not provide it`, [
      `Install the version of ${pkg} the code expects (and pin it), or write the code against the installed version.`,
    ]);
  }
  const crate = out.match(/no matching package named `([^`]+)` found/);
  if (crate && !side(crate[0])) return result('missing_dependency', `Missing package ${crate[1]}: ${crate[0]}`);
  const linker = out.match(/linker `([^`]+)` not found/);
  if (linker && !side(linker[0])) {
    return result('missing_dependency', `The linker \`${linker[1]}\` is not installed (${linker[0]})`, [
      `Install a C toolchain that provides \`${linker[1]}\` (e.g. build-essential).`,
    ]);
  }
  // A -sys crate's build script that cannot find its system library (OpenSSL, pkg-config, …).
  const build = out.match(/failed to run custom build command for `([^`]+)`/);
  if (build && !side(build[0])) {
    const why = firstMatch(out.slice(build.index), [
      /^.*\bCould not find\b.*$/m,
      /^.*\b(?:could not be found|is not installed|Unable to find)\b.*$/m,
      /^.*\bnot found\b.*$/m,
    ]);
    if (why) return result('missing_dependency', `Build script of ${build[1]} is missing a system dependency: ${why[0].trim()}`);
  }
  // Godot: an addon the project enables, or the export templates an export needs.
  const addon = out.match(/Cannot find addon ['"]?([^'"\s]+)['"]?/);
  if (addon && !side(addon[0])) {
    return result('missing_dependency', `Godot addon '${addon[1]}' is not installed (${addon[0]})`, [
      'Install the addon under res://addons/ and enable it in the project; the agent cannot download it.',
    ]);
  }
  const template = out.match(/^.*(?:No export template found|export templates? (?:is |are )?missing).*$/im);
  if (template && !side(template[0])) {
    const next = out
      .slice((template.index ?? 0) + template[0].length + 1)
      .split('\n', 1)[0]!
      .trim();
    const where = /^(?:\/|[A-Za-z]:[\\/]|~)/.test(next) ? ` ${next}` : '';
    return result('missing_dependency', `${template[0].replace(/^ERROR:\s*/, '').trim()}${where}`, [
      "Install the export templates for this Godot version (Editor → Manage Export Templates, or unpack them into Godot's export_templates/<version>/ directory).",
    ]);
  }
  if (r.exitCode === 127 && tests.length === 0) return result('missing_dependency', 'Exit code 127: a command the gate runs was not found');
  return null;
}
