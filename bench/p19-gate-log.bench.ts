// P19: a gate printing a 100 MB TAP log (10 failures spread through it) read as it streams — every line through the
// failure markers, the kept copy parsed and classified — ÷ only reading the same log line by line. Goal ≤ 3. And the
// memory it takes above the process's baseline: goal under 64 MB (printed as a ratio to 64 MB, goal < 1).
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { classifyGateFailure } from '../electron/engine/failures/classify';
import { countTests } from '../electron/engine/gates/count-tests';
import { GateLog } from '../electron/engine/gates/gate-log';
import { FAILURE_LINE_MARKERS, isFailureLine, parseFailures } from '../electron/engine/gates/parse-failures';
import { failedGate } from '../electron/engine/testing/step-fixtures';
import { goalLine } from './measure';

const MB = 1024 * 1024;
const SIZE = Number(process.env.P19_MB ?? 100) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function writeLog(file: string): Promise<{ lines: number; failures: number }> {
  const out = createWriteStream(file);
  let bytes = 0;
  let n = 0;
  let failures = 0;
  const every = Math.floor(SIZE / 10 / 60);
  let batch: string[] = [];
  while (bytes < SIZE) {
    n++;
    const line =
      n % every === every / 2
        ? `not ok ${n} - parses record ${n}\n  ---\n  message: 'expected 3, got 4'\n  expected: 3\n  actual: 4\n  ...\n`
        : `ok ${n} - handles record ${n} in the parser (${n % 17} ms)\n`;
    if (line.startsWith('not ok')) failures++;
    bytes += line.length;
    batch.push(line);
    if (batch.length === 10_000) {
      if (!out.write(batch.join(''))) await once(out, 'drain');
      batch = [];
    }
  }
  out.write(batch.join(''));
  out.write(`1..${n}\n`);
  out.end();
  await once(out, 'finish');
  return { lines: n + 1, failures };
}

/** Reading the log as a gate's output arrives, line by line, and nothing more. */
async function readLines(file: string): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let lines = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    const text = decoder.write(chunk as Buffer);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  }
  return lines;
}

/** What Ratchet does with it: every line through the markers, then the kept copy parsed, counted and classified. */
async function parseLog(file: string, peak: { rss: number }): Promise<number> {
  const log = new GateLog({ isFailureLine, markers: FAILURE_LINE_MARKERS });
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    log.push(chunk as Buffer);
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
  }
  log.end();
  const output = log.toString();
  const failures = parseFailures({ output });
  countTests(output);
  classifyGateFailure(failedGate(output, { durationMs: 1, outputBytes: log.totalBytes }), failures);
  peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
  return failures.length;
}

const dir = mkdtempSync(join(tmpdir(), 'ratchet-p19-'));
try {
  const file = join(dir, 'tap.log');
  const made = await writeLog(file);
  let read = Infinity;
  let parse = Infinity;
  let found = 0;
  let above = 0;
  for (let r = 0; r < ROUNDS; r++) {
    gc();
    let s = performance.now();
    await readLines(file);
    read = Math.min(read, performance.now() - s);
    gc();
    const base = process.memoryUsage.rss();
    const peak = { rss: base };
    s = performance.now();
    found = await parseLog(file, peak);
    parse = Math.min(parse, performance.now() - s);
    above = Math.max(above, peak.rss - base);
  }
  const okTime = goalLine('P19', `parse a ${SIZE / MB} MB TAP log as it streams ÷ read it line by line`, parse / read, 3);
  console.log(`  (${parse.toFixed(0)} ms vs ${read.toFixed(0)} ms; ${made.lines.toLocaleString('en-US')} lines, ${found}/${made.failures} failures found)`);
  const okMem = goalLine('P19', `memory above baseline while parsing it ÷ 64 MB`, above / (64 * MB), 1);
  console.log(`  (${(above / MB).toFixed(1)} MB above the baseline at its peak)`);
  if (found !== made.failures) console.log(`P19 found ${found} of ${made.failures} failures`);
  process.exitCode = okTime && okMem && found === made.failures ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
