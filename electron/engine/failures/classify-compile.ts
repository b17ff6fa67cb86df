// Build failures by compiler and linter (TypeScript, Rust, Go, C-family and javac, ESLint, esbuild, Godot, Python
// and JavaScript syntax), headlined by the first error, its place and how many more there are.
import { locationSuffix, moreSuffix, result, type Classification } from './classify-result';

export function compilationError(out: string): Classification | null {
  // TypeScript: "src/a.ts(3,7): error TS2322: …" or, with --pretty, "src/a.ts:3:7 - error TS2322: …"
  const tsCount = out.match(/\berror TS\d+:/g)?.length ?? 0;
  if (tsCount > 0) {
    const m = out.match(/^(.+?)\((\d+),\d+\): error (TS\d+): (.+)$/m) ?? out.match(/^(.+?):(\d+):\d+ - error (TS\d+): (.+)$/m);
    if (m) return result('compilation_error', `${m[3]}: ${m[4]}${locationSuffix(m[1], m[2])}${moreSuffix(tsCount)}`);
    const g = out.match(/\berror (TS\d+): (.+)$/m)!;
    return result('compilation_error', `${g[1]}: ${g[2]}${moreSuffix(tsCount)}`);
  }

  // Rust: "error[E0308]: mismatched types\n --> src/lib.rs:3:5"
  const rustCount = out.match(/^error(?:\[E\d+\])?: (?!aborting due to|could not compile)/gm)?.length ?? 0;
  if (/^error\[E\d+\]: /m.test(out) || /^error: could not compile/m.test(out)) {
    const m = out.match(/^error(?:\[(E\d+)\])?: (?!aborting due to|could not compile)(.+)\n\s*--> (.+?):(\d+):\d+/m);
    if (m) return result('compilation_error', `${m[1] ? `${m[1]}: ` : ''}${m[2]}${locationSuffix(m[3], m[4])}${moreSuffix(rustCount)}`);
    return result('compilation_error', out.match(/^error.*$/m)![0]);
  }

  // Go: "./math.go:4:9: undefined: foo" (test log lines have no column, so they do not match)
  const goLines = [...out.matchAll(/^((?:\.{1,2}\/)?[\w./-]*\.go):(\d+):\d+: (.+)$/gm)];
  if (goLines.length > 0 || /\[(?:build|setup) failed\]/.test(out)) {
    const m = goLines[0];
    if (m) return result('compilation_error', `${m[3]}${locationSuffix(m[1], m[2])}${moreSuffix(goLines.length)}`);
    return result('compilation_error', out.match(/^.*\[(?:build|setup) failed\].*$/m)![0]);
  }

  // gcc / clang / javac and friends: "main.c:3:5: error: …", "Foo.java:3: error: …"
  const ccLines = [...out.matchAll(/^(.+?\.(?:c|cc|cpp|cxx|h|hh|hpp|m|mm|java|kt|swift|zig|cs)):(\d+):(?:\d+:)? (?:fatal )?error: (.+)$/gm)];
  if (ccLines.length > 0) {
    const m = ccLines[0]!;
    return result('compilation_error', `${m[3]}${locationSuffix(m[1], m[2])}${moreSuffix(ccLines.length)}`);
  }
  const link = out.match(/^.*(?:undefined reference to|ld returned \d+ exit status|error CS\d+:|Undefined symbols for architecture).*$/m);
  if (link) return result('compilation_error', link[0].trim());

  // ESLint (stylish): "  5:20  error  'nme' is not defined  no-undef" under the file's path, then "✖ 3 problems (3 errors, …)"
  const eslint = out.match(/^[ \t]*✖ (\d+) problems? \((\d+) errors?/m);
  if (eslint && Number(eslint[2]) > 0) {
    const first = out.match(/^(\S.*)\n\s+(\d+):\d+\s+error\s+(.+?)(?:\s{2,}(\S+))?\s*$/m);
    const count = Number(eslint[2]);
    if (first) return result('compilation_error', `${first[3]}${first[4] ? ` (${first[4]})` : ''}${locationSuffix(first[1], first[2])}${moreSuffix(count)}`);
    return result('compilation_error', eslint[0].trim());
  }

  // esbuild (vitest, vite, tsx): "/src/a.ts:3:10: ERROR: Expected ";" but found "x""
  const esb = out.match(/^(.+?):(\d+):\d+: ERROR: (.+)$/m);
  if (esb) return result('compilation_error', `${esb[3]}${locationSuffix(esb[1], esb[2])}`);

  // Godot: "SCRIPT ERROR: Parse Error: …" then "   at: GDScript::reload (res://player.gd:14)"; Godot 3 puts a
  // function before the message and "At: res://player.gd:14." after. Seed 002 counts a bad property name
  // ("Invalid get index 'helth'") as a compile error: it is a typo the agent can fix, like a parse error.
  const godot = [...out.matchAll(/^(?:SCRIPT ERROR: )?(?:[\w.:]+: )?((?:Parse Error|Invalid (?:get|set) index|Invalid access to property or key)\b.*)$/gm)];
  if (godot.length > 0) {
    const m = godot[0]!;
    const after = out
      .slice((m.index ?? 0) + m[0].length)
      .split('\n')
      .slice(1, 3)
      .join('\n');
    const loc = after.match(/(res:\/\/[^\s():]+):(\d+)/);
    return result('compilation_error', `${m[1]!.trim()}${loc ? locationSuffix(loc[1], loc[2]) : ''}${moreSuffix(godot.length)}`);
  }

  // Python: a name missing from a project module (installed packages were handled as missing dependencies).
  const pyName = out.match(/ImportError: cannot import name '[^']+' from .*$/m);
  if (pyName) return result('compilation_error', pyName[0].trim());

  // Python and JavaScript syntax errors. A SyntaxError about JSON is a runtime failure inside a test, not a build error.
  const syn = out.match(/^(?:E\s+)?.*?\b(SyntaxError|IndentationError|TabError): (?!.*JSON)(.+)$/m);
  if (syn) {
    const before = out.slice(0, syn.index);
    const py = [...before.matchAll(/File "([^"]+)", line (\d+)/g)].pop();
    const js = [...before.matchAll(/^((?:file:\/\/)?\/?[^\s:()]+\.[cm]?[jt]sx?):(\d+)$/gm)].pop();
    const loc = py ?? js;
    return result('compilation_error', `${syn[1]}: ${syn[2]}${loc ? locationSuffix(loc[1], loc[2]) : ''}`);
  }
  return null;
}
