// Failure fingerprints: a short hash of a failure with what varies between runs removed, so the retry policy can tell "the same failure again" from "a different one".
import { createHash } from 'node:crypto';
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { findLocation, goTestJsonText, stripAnsi } from '../gates/parse-failures';

export interface FingerprintInput {
  errorClass: ErrorClass;
  failures: readonly FailedTest[];
  output: string;
  /** The directory the gate ran in; paths under it become project-relative. Common layouts are recognised without it. */
  root?: string | null;
}

const MAX_TESTS = 200;
const MAX_SCRUBBED = 500;
const MAX_ERROR_LINES = 5;
const MAX_TAIL_LINES = 3;
const MAX_FIELD_CHARS = 300;

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Path segments stop at whitespace, quotes, brackets and colons, so "file.ts:3:7" keeps its location suffix.
const SEG = `[^\\s/\\\\'"\`()<>\\[\\]:,;]+`;
// A path starts at the text's start or after a delimiter, never inside another path: matching from every slash of a
// long path is quadratic.
const PATH_START = `(?<![^\\s'"\`(<\\[=,;:])`;

/** Project roots a runner announces in its own output: vitest's RUN line, pytest's rootdir, cargo's Compiling line. */
function announcedRoots(text: string): string[] {
  const roots: string[] = [];
  for (const m of text.matchAll(/^[ \t]*RUN\s+v\S+\s+(\/\S+)\s*$/gm)) roots.push(m[1]!);
  for (const m of text.matchAll(/^rootdir: (\/\S+?),?\s*$/gm)) roots.push(m[1]!);
  for (const m of text.matchAll(/^[ \t]*Compiling \S+ v\S+ \((\/[^)]+)\)\s*$/gm)) roots.push(m[1]!);
  return roots;
}

/**
 * Makes paths comparable between runs: under a known root they become project-relative; a Ratchet worktree
 * (…/worktrees/<name>/) or a temp directory (/tmp/<random>/) counts as the root; installed packages keep only the part
 * from node_modules/ on; other home directories become ~.
 */
function relativise(text: string, roots: readonly string[]): string {
  let t = text.replace(/file:\/\//g, '');
  for (const root of [...roots].filter((r) => r.length > 1).sort((a, b) => b.length - a.length)) {
    const r = root.replace(/[\\/]+$/, '');
    t = t.replace(new RegExp(`${escapeRegExp(r)}[\\\\/]`, 'g'), '').replace(new RegExp(`${escapeRegExp(r)}(?![\\w.-])`, 'g'), '.');
  }
  return t
    .replace(new RegExp(`${PATH_START}(?:[A-Za-z]:)?(?:[\\\\/]${SEG})*[\\\\/]node_modules[\\\\/]`, 'g'), 'node_modules/')
    .replace(new RegExp(`${PATH_START}(?:[\\\\/]${SEG})*[\\\\/]worktrees[\\\\/]${SEG}(?:[\\\\/]|(?![\\w.-]))`, 'g'), (m) => (/[\\/]$/.test(m) ? '' : '.'))
    .replace(new RegExp(`${PATH_START}(?:/private)?/(?:tmp|var/tmp|var/folders/${SEG}/${SEG}/T)/${SEG}(?:/|(?![\\w.-]))`, 'g'), (m) =>
      m.endsWith('/') ? '' : '<tmp>',
    )
    .replace(new RegExp(`${PATH_START}[A-Za-z]:\\\\Users\\\\${SEG}\\\\AppData\\\\Local\\\\Temp\\\\${SEG}\\\\?`, 'gi'), '')
    .replace(new RegExp(`${PATH_START}(?:/home/${SEG}|/Users/${SEG}|/root)(?=/)`, 'g'), '~');
}

/** Removes what changes from run to run without the failure changing: times, addresses, ids, colours, spacing. */
function scrub(text: string, roots: readonly string[]): string {
  return (
    relativise(stripAnsi(text), roots)
      .replace(/\b\d{4}-\d{2}-\d{2}[T _]\d{2}[:_]\d{2}[:_]\d{2}(?:[.,_]\d+)?Z?(?:[+-]\d{2}:?\d{2})?/g, '<time>')
      .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>')
      .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<time>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
      .replace(/\b0x[0-9a-f]+\b/gi, '0x…')
      // Commit and build hashes: hex runs with both digits and letters, so plain words ("deadbeef", "facade") survive.
      .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g, '<hash>')
      .replace(/\b(pid|PID|process|thread)([\s:=#]+)\d+\b/g, '$1$2<pid>')
      .replace(/(thread '[^']*' )\(\d+\)/g, '$1(<pid>)')
      .replace(/(: line \d+: )\d+(?= [A-Z])/g, '$1<pid>') // bash: "line 1: 11455 Segmentation fault"
      .replace(/\[\d+:0x…\]/g, '[<pid>:0x…]') // V8's GC trace
      .replace(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, '<ip>') // a load-balanced API answers from many addresses
      .replace(/(localhost|<ip>|\[::1?\]):\d{2,5}\b/g, '$1:<port>')
      .replace(/\bduration_ms:\s*\S+/g, 'duration_ms: <dur>')
      .replace(/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|min|minutes?)\b/g, '<dur>')
      .replace(/\b\d+(?:\.\d+)?\s?(?:[KMGT]i?B|bytes)\b/g, '<size>')
      .replace(/\b\d{10,}\b/g, '<n>')
      .replace(/[ \t]+/g, ' ')
  );
}

/** Line and column numbers, for output lines: an edit above the error moves them without changing the failure. */
function dropLineNumbers(line: string): string {
  return line
    .replace(/(\.[A-Za-z][\w]{0,7})\(\d+,\d+\)/g, '$1') // tsc: a.ts(3,7)
    .replace(/(\.[A-Za-z][\w]{0,7}):\d+(?::\d+)?\b/g, '$1') // a.ts:3:7, main.go:12
    .replace(/\b(line|Line|LINE|at line) \d+\b/g, '$1 N')
    .replace(/^\s*(?:>\s*)?\d+\s*\|/, '|') // code frames: "  12 | …", "> 12 | …"
    .replace(/\b\d+\.\d+\b/g, '<f>');
}

// Lines that say what went wrong; the rest of a failing run's output is progress, banners and passing tests.
const ERROR_LINE =
  /\b(?:error|errors|fail|failed|failure|fatal|panic|panicked|exception|traceback|cannot|can't|could not|not found|denied|not permitted|invalid|undefined|unexpected|missing|conflict|killed|aborted|segmentation fault|crashed|timed out|timeout|refused|reset|overloaded|too many requests|rate.?limit|no space|out of memory)\b|^E\s|[✖✗×]/i;

// V8's GC trace before a heap OOM ("[123:0x…] 196 ms: Mark-Compact 25.9 (50.8) -> …"): every number in it varies.
const NOISE_LINE = /^\[<pid>:0x…\]/;

function isLibraryFile(file: string): boolean {
  return /(?:^|[\\/])node_modules[\\/]|^node:|^internal[\\/]|site-packages|dist-packages|\/rustc\/|\/usr\/lib\/|\/go\/src\/(?:runtime|testing)\//.test(file);
}

/** File of the first stack frame in project code: JS "at …", vitest "❯", Python 'File "…"', Rust "-->", Go, Godot. */
function topFrameFile(text: string, roots: readonly string[]): string | null {
  for (const line of text.split('\n')) {
    const godot = line.match(/^\s*at:? .*?\(?(res:\/\/[^\s():]+):\d+/i);
    if (godot) return godot[1]!;
    if (!/^\s*(?:at\s|❯\s|-->\s|File "|\S+\.go:\d+ \+0x)/.test(line)) continue;
    const loc = findLocation(line);
    if (loc && !isLibraryFile(loc.file)) return relativise(loc.file, roots).replace(/^\.[\\/]/, '');
  }
  return null;
}

function field(value: string | null | undefined, roots: readonly string[]): string {
  if (value === null || value === undefined) return '';
  return clip(scrub(String(value), roots).trim(), MAX_FIELD_CHARS);
}

function testLine(f: FailedTest, roots: readonly string[]): string {
  const parts = [`test ${field(f.name, roots) || '(unnamed test)'}`];
  if (f.expected !== null && f.expected !== undefined) parts.push(`expected=${field(f.expected, roots)}`);
  if (f.actual !== null && f.actual !== undefined) parts.push(`actual=${field(f.actual, roots)}`);
  if ((f.expected === null || f.expected === undefined) && (f.actual === null || f.actual === undefined) && f.message) {
    // Without values, the first line of the message tells one way of failing from another.
    parts.push(
      `error=${field(
        String(f.message)
          .split('\n')
          .find((l) => l.trim() !== '') ?? '',
        roots,
      )}`,
    );
  }
  if (f.file) {
    const file = field(f.file, roots);
    parts.push(`at ${file}${typeof f.line === 'number' && Number.isFinite(f.line) ? `:${f.line}` : ''}`);
  }
  return parts.join(' | ');
}

/** The canonical text that `fingerprint` hashes: the class, then the failing tests or the output's error lines. */
export function normaliseFailure(input: FingerprintInput): string {
  const rawOutput = typeof input.output === 'string' ? input.output : '';
  const plain = stripAnsi(goTestJsonText(rawOutput) ?? rawOutput);
  const roots = [input.root, ...announcedRoots(plain)].filter((r): r is string => typeof r === 'string' && r !== '');
  const lines = [`class ${String(input.errorClass)}`];

  const failures = Array.isArray(input.failures) ? input.failures.filter((f) => f && typeof f === 'object') : [];
  if (failures.length > 0) {
    const tests = [...new Set(failures.map((f) => testLine(f, roots)))].sort();
    lines.push(...tests.slice(0, MAX_TESTS));
    return lines.join('\n');
  }

  // Only the lines that can be kept are scrubbed: those with error wording (scrubbing adds none) and the last few, so a
  // long output of blank or passing lines costs one test per line (linear-parsing.test.ts).
  const raw = plain.split('\n');
  const clean = (l: string): string => dropLineNumbers(scrub(l, roots)).trim();
  const errors: string[] = [];
  // A log repeating its error wording on every line is scrubbed once per distinct line, and at most MAX_SCRUBBED times.
  const tried = new Set<string>();
  for (const r of raw) {
    if (tried.size >= MAX_SCRUBBED || tried.has(r) || !ERROR_LINE.test(r.trimStart())) continue;
    tried.add(r);
    const l = clean(r);
    if (l === '' || !ERROR_LINE.test(l) || NOISE_LINE.test(l) || errors.includes(l)) continue;
    errors.push(clip(l, MAX_FIELD_CHARS));
    if (errors.length >= MAX_ERROR_LINES) break;
  }
  // Without error wording, the last lines usually say how it ended; a timeout's last lines are wherever it was cut.
  if (errors.length === 0 && input.errorClass !== 'timeout') {
    const tail: string[] = [];
    for (let i = raw.length - 1; i >= 0 && tail.length < MAX_TAIL_LINES; i--) {
      if (raw[i]!.trim() === '') continue;
      const l = clean(raw[i]!);
      if (l !== '' && !/^[-=_~⎯*#]+$/.test(l)) tail.unshift(clip(l, MAX_FIELD_CHARS));
    }
    errors.push(...tail);
  }
  lines.push(...errors.map((l) => `error ${l}`));
  const top = topFrameFile(plain, roots);
  if (top) lines.push(`top ${field(top, roots)}`);
  return lines.join('\n');
}

/** sha256 of `normaliseFailure`, first 16 hex characters. Equal fingerprints mean the same failure came back. */
export function fingerprint(input: FingerprintInput): string {
  return createHash('sha256').update(normaliseFailure(input)).digest('hex').slice(0, 16);
}
