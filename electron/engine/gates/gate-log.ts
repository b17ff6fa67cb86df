// A gate's whole output read as it streams, kept bounded: the head, the tail, and every failure's lines with context in
// between, with notes that say which original lines were left out (so a failure at line 7,321 of 10,001 is kept).
import { StringDecoder } from 'node:string_decoder';
import { formatBytes } from './bounded-output';

export { readGapNote } from '../../../shared/line-index';

/** A line that may start a failure: any parser's marker (see FAILURE_MARKERS in parse-failures.ts). */
export type LineTest = (line: string) => boolean;

export interface GateLogOptions {
  /** Bytes of the output's first lines kept. Default 64 KB. */
  headBytes?: number;
  /** Bytes of the output's last lines kept. Default 64 KB. */
  tailBytes?: number;
  /** Bytes kept in all for failures between head and tail. Default 1 MB. */
  excerptBytes?: number;
  /** Lines kept before and after a failure's marker line. Defaults 3 and 60. */
  before?: number;
  after?: number;
  /** A longer line is kept cut to this many characters. Default 4,000. */
  maxLineChars?: number;
  isFailureLine: LineTest;
}

interface Kept {
  no: number;
  /** Byte offset of the line's start in the original output. */
  at: number;
  bytes: number;
  size: number;
  text: string;
}

const KB = 1024;

/** The note that stands for left-out lines; failure-parser.ts's CUT_MARKER matches it, so no parser reads across it. */
export function gapNote(first: number, last: number, bytes: number): string {
  const lines = first === last ? `line ${first.toLocaleString('en-US')}` : `lines ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')}`;
  return `[… ${lines} elided (${formatBytes(bytes)}) …]`;
}

/**
 * Collects a stream of output bytes line by line. Memory is bounded by the options whatever the gate prints; every
 * line is looked at once (the marker test), so a failure anywhere is kept with its context.
 */
export class GateLog {
  private readonly decoder = new StringDecoder('utf8');
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly excerptCap: number;
  private readonly before: number;
  private readonly after: number;
  private readonly maxLine: number;
  private readonly isFailureLine: LineTest;
  private partial = '';
  private partialBytes = 0;
  private lineNo = 0;
  private offset = 0;
  private readonly head: Kept[] = [];
  private headUsed = 0;
  private tail: Kept[] = [];
  private tailStart = 0;
  private tailUsed = 0;
  private readonly excerpts: Kept[] = [];
  private excerptUsed = 0;
  private excerptsFull = false;
  private recent: Kept[] = [];
  private afterLeft = 0;
  private total = 0;
  private failureLines = 0;
  private lastEnded = false;

  constructor(opts: GateLogOptions) {
    this.headCap = opts.headBytes ?? 64 * KB;
    this.tailCap = opts.tailBytes ?? 64 * KB;
    this.excerptCap = opts.excerptBytes ?? 1024 * KB;
    this.before = opts.before ?? 3;
    this.after = opts.after ?? 60;
    this.maxLine = opts.maxLineChars ?? 4000;
    this.isFailureLine = opts.isFailureLine;
  }

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += buf.length;
    const text = this.decoder.write(buf);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      if (this.partial !== '') {
        this.line(this.partial + piece, this.partialBytes + Buffer.byteLength(piece) + 1);
        this.partial = '';
        this.partialBytes = 0;
      } else {
        this.line(piece, Buffer.byteLength(piece) + 1);
      }
      start = nl + 1;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      this.partialBytes += Buffer.byteLength(rest);
      // A line that never ends is kept only up to the line cap (its bytes still count).
      if (this.partial.length <= this.maxLine) this.partial = (this.partial + rest).slice(0, this.maxLine + 1);
    }
  }

  /** Ends the stream: the last line without a newline counts too. */
  end(): void {
    const rest = this.decoder.end();
    if (rest !== '') {
      this.partialBytes += Buffer.byteLength(rest);
      if (this.partial.length <= this.maxLine) this.partial = (this.partial + rest).slice(0, this.maxLine + 1);
    }
    if (this.partial !== '' || this.partialBytes > 0) {
      this.line(this.partial, this.partialBytes);
      this.lastEnded = false;
    }
    this.partial = '';
    this.partialBytes = 0;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Lines in the whole output (a last line without a newline included, once ended). */
  get totalLines(): number {
    return this.lineNo;
  }

  /** Lines that looked like the start of a failure, anywhere in the output. */
  get failureLineCount(): number {
    return this.failureLines;
  }

  private line(raw: string, bytes: number): void {
    this.lastEnded = true;
    const no = ++this.lineNo;
    const at = this.offset;
    this.offset += bytes;
    const text = raw.length > this.maxLine ? `${raw.slice(0, this.maxLine)}…` : raw;
    // What keeping the line costs: its kept text (a cut line costs its cut), about one byte a character.
    const size = Math.min(bytes, text.length + 1);
    const kept: Kept = { no, at, bytes, size, text };
    if (this.headUsed + size <= this.headCap && this.head.length === no - 1) {
      this.head.push(kept);
      this.headUsed += size;
      return;
    }
    const failing = this.isFailureLine(text);
    if (failing) this.failureLines++;
    if (!this.excerptsFull) {
      if (failing) {
        for (const r of this.recent) this.keepExcerpt(r);
        this.recent = [];
        this.keepExcerpt(kept);
        this.afterLeft = this.after;
      } else if (this.afterLeft > 0) {
        this.afterLeft--;
        this.keepExcerpt(kept);
      } else {
        this.recent.push(kept);
        if (this.recent.length > this.before) this.recent.shift();
      }
    }
    this.tail.push(kept);
    this.tailUsed += size;
    while (this.tailUsed > this.tailCap && this.tailStart < this.tail.length - 1) {
      this.tailUsed -= this.tail[this.tailStart]!.size;
      this.tailStart++;
    }
    if (this.tailStart > 1024 && this.tailStart * 2 > this.tail.length) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }

  private keepExcerpt(k: Kept): void {
    const last = this.excerpts[this.excerpts.length - 1];
    if (last && last.no >= k.no) return;
    if (this.excerptUsed + k.size > this.excerptCap) {
      this.excerptsFull = true;
      return;
    }
    this.excerpts.push(k);
    this.excerptUsed += k.size;
  }

  /**
   * The kept copy: head, failures with context, tail, in the original order, each run of left-out lines replaced by a
   * note naming their original line numbers and size. Identical to the output when nothing was left out.
   */
  toString(): string {
    const seen = new Set<number>();
    const lines: Kept[] = [];
    for (const k of [...this.head, ...this.excerpts, ...this.tail.slice(this.tailStart)]) {
      if (seen.has(k.no)) continue;
      seen.add(k.no);
      lines.push(k);
    }
    lines.sort((a, b) => a.no - b.no);
    const out: string[] = [];
    let next = 1;
    let nextAt = 0;
    for (const k of lines) {
      if (k.no > next) out.push(gapNote(next, k.no - 1, k.at - nextAt));
      out.push(k.text);
      next = k.no + 1;
      nextAt = k.at + k.bytes;
    }
    const count = this.lineNo;
    if (count >= next) out.push(gapNote(next, count, this.offset - nextAt));
    // An output whose last line ended with a newline keeps it, so one that fits comes back byte for byte.
    return this.lastEnded && out.length > 0 ? `${out.join('\n')}\n` : out.join('\n');
  }
}
