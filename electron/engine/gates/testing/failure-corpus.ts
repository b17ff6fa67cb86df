// Scores the failure parsers and the classifier against the recorded corpus (corpus/<tool>/<case>.txt + truth):
// class, failing-test name, expected/actual (where the tool printed them) and file:line.
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorClass } from '../../../../shared/domain';
import { classifyGateFailure } from '../../failures/classify';
import { parseFailures, type FailedTest } from '../parse-failures';
import type { GateResult } from '../run-gate';

export const CORPUS_DIR = path.join(import.meta.dirname, '..', 'corpus');

export interface TruthFailure {
  kind?: 'compile';
  name?: string;
  expected?: string | null;
  actual?: string | null;
  file: string | null;
  line: number | null;
  code?: string | null;
}

export interface CorpusCase {
  id: string;
  output: string;
  report: string | null;
  exitCode: number | null;
  /** heldOut: the batch (1–4) of cases recorded after the parsers were written; absent for the development cases. */
  truth: { class: ErrorClass; failures: TruthFailure[]; note?: string; heldOut?: number };
}

export function loadCorpus(dir = CORPUS_DIR): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const tool of fs.readdirSync(dir).sort()) {
    const toolDir = path.join(dir, tool);
    if (!fs.statSync(toolDir).isDirectory()) continue;
    for (const f of fs.readdirSync(toolDir).sort()) {
      if (!f.endsWith('.truth.json')) continue;
      const base = path.join(toolDir, f.replace(/\.truth\.json$/, ''));
      const report = ['xml', 'json'].map((e) => `${base}.report.${e}`).find((p) => fs.existsSync(p));
      const exit = fs.existsSync(`${base}.exit`) ? fs.readFileSync(`${base}.exit`, 'utf8').trim() : '1';
      cases.push({
        id: `${tool}/${f.replace(/\.truth\.json$/, '')}`,
        output: fs.readFileSync(`${base}.txt`, 'utf8'),
        report: report ? fs.readFileSync(report, 'utf8') : null,
        exitCode: exit === '' ? null : Number(exit),
        truth: JSON.parse(fs.readFileSync(path.join(toolDir, f), 'utf8')) as CorpusCase['truth'],
      });
    }
  }
  return cases;
}

/** Names compared the way a person would: separators (›, >, ::, /, .), file extensions and "()" do not matter. */
export function normName(s: string): string {
  return s
    .replace(/\(\)/g, '')
    .replace(/\.(?:py|[cm]?[jt]sx?|go|rs|java)\b/g, '')
    .replace(/\s*(?:›|>|::|\/|\.)\s*|\s+/g, ' ')
    .trim();
}

/** Values compared modulo spacing and quote style (the JSON report and the console print the same value differently). */
export function normValue(s: string): string {
  return s.replace(/\s+/g, '').replace(/'/g, '"');
}

function sameFile(parsed: string | null, truth: string): boolean {
  if (!parsed) return false;
  const p = parsed.replace(/\\/g, '/').replace(/^\.\//, '');
  return p === truth || p.endsWith(`/${truth}`);
}

export interface Score {
  cases: number;
  classOk: number;
  names: [number, number];
  expected: [number, number];
  actual: [number, number];
  location: [number, number];
  misses: string[];
}

function emptyScore(): Score {
  return { cases: 0, classOk: 0, names: [0, 0], expected: [0, 0], actual: [0, 0], location: [0, 0], misses: [] };
}

function gateResult(c: CorpusCase): GateResult {
  return {
    name: 'test',
    command: c.id,
    passed: false,
    exitCode: c.exitCode,
    signal: null,
    timedOut: false,
    durationMs: 1000,
    output: c.output,
    outputBytes: Buffer.byteLength(c.output),
    reportXml: c.report,
    spawnError: null,
  };
}

/** Runs the parsers and the classifier over each case and adds its results to `score`. */
export function scoreCase(c: CorpusCase, score: Score): { failures: FailedTest[]; errorClass: ErrorClass } {
  const failures = parseFailures({ output: c.output, reportXml: c.report });
  const errorClass = classifyGateFailure(gateResult(c), failures).errorClass;
  score.cases += 1;
  if (errorClass === c.truth.class) score.classOk += 1;
  else score.misses.push(`${c.id}: class ${errorClass}, want ${c.truth.class}`);
  const used = new Set<FailedTest>();
  for (const t of c.truth.failures) {
    const label = t.kind === 'compile' ? `${t.file}:${t.line}` : t.name!;
    let hit: FailedTest | undefined;
    if (t.kind === 'compile') {
      hit = failures.find((f) => !used.has(f) && f.kind === 'compile' && t.file !== null && sameFile(f.file, t.file) && f.line === t.line);
    } else {
      const want = normName(t.name!);
      hit = failures.find((f) => {
        if (used.has(f)) return false;
        const got = normName(f.name);
        return got === want || got.endsWith(` ${want}`);
      });
    }
    if (hit) used.add(hit);
    score.names[1] += 1;
    const nameOk = hit !== undefined && (t.kind !== 'compile' || !t.code || hit.code === t.code);
    if (nameOk) score.names[0] += 1;
    else score.misses.push(`${c.id}: ${label} not found${hit ? ` (code ${hit.code})` : ''}`);
    for (const key of ['expected', 'actual'] as const) {
      const want = t[key];
      if (want === null || want === undefined) {
        // A value the tool never printed is an invented one: it counts against the score.
        const got = t.kind === 'compile' ? null : hit?.[key];
        if (got !== null && got !== undefined) {
          score[key][1] += 1;
          score.misses.push(`${c.id}: ${label} ${key} ${JSON.stringify(got)}, but the tool printed none`);
        }
        continue;
      }
      score[key][1] += 1;
      const got = hit?.[key];
      if (got !== null && got !== undefined && normValue(got) === normValue(want)) score[key][0] += 1;
      else score.misses.push(`${c.id}: ${label} ${key} ${JSON.stringify(got ?? null)}, want ${JSON.stringify(want)}`);
    }
    if (t.file !== null && t.line !== null) {
      score.location[1] += 1;
      if (hit && sameFile(hit.file, t.file) && hit.line === t.line) score.location[0] += 1;
      else score.misses.push(`${c.id}: ${label} at ${hit ? `${hit.file}:${hit.line}` : 'nothing'}, want ${t.file}:${t.line}`);
    }
  }
  return { failures, errorClass };
}

export function scoreCorpus(cases: readonly CorpusCase[]): Score {
  const score = emptyScore();
  for (const c of cases) scoreCase(c, score);
  return score;
}

export function pct([hit, of]: [number, number]): number {
  return of === 0 ? 100 : Math.round((1000 * hit) / of) / 10;
}

export function formatScore(label: string, s: Score): string {
  const part = (name: string, v: [number, number]): string => `${name} ${pct(v)} % (${v[0]}/${v[1]})`;
  return [
    `${label}: ${s.cases} cases`,
    `  class ${pct([s.classOk, s.cases])} % (${s.classOk}/${s.cases})`,
    `  ${part('name', s.names)}`,
    `  ${part('expected', s.expected)}, ${part('actual', s.actual)}`,
    `  ${part('file:line', s.location)}`,
  ].join('\n');
}
