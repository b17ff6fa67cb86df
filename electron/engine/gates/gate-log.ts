// A gate's whole output read as it streams, kept bounded: the head, the tail, and every failure's lines with context in
// between, with notes that say which original lines were left out (so a failure at line 7,321 of 10,001 is kept).
import { StringDecoder } from 'node:string_decoder';
import { formatBytes } from './bounded-output';
import type { LineMarkers, LineScanner } from './marker-scan';

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
  /** The same test compiled for a whole chunk's lines at once (parse-failures.ts's FAILURE_LINE_MARKERS); without it every line goes through isFailureLine. */
  markers?: LineMarkers;
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
// Head and tail are also at most this many lines each (64 KB of blank lines is 65,536 lines that say nothing).
const MAX_END_LINES = 5000;

/** Whether a text holds a byte that makes it terminal output (colour, cursor moves, redraws): four indexOf passes are ~10× faster than one class. */
function terminalText(text: string): boolean {
  return text.includes('\u001b') || text.includes('\r') || text.includes('\u0008') || text.includes('\u009b');
}

/** The note that stands for left-out lines; failure-parser.ts's CUT_MARKER matches it, so no parser reads across it. */
export function gapNote(first: number, last: number, bytes: number): string {
  const lines = first === last ? `line ${first.toLocaleString('en-US')}` : `lines ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')}`;
  return `[… ${lines} elided (${formatBytes(bytes)}) …]`;
}

/**
 * Collects a stream of output bytes line by line. Memory is bounded by the options whatever the gate prints; every
 * line is looked at once (a chunk's lines through `markers`' scanner, which tries a line only against the markers that
 * can start it), so a failure anywhere is kept with its context. `isFailureLine` decides for a single line.
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
  private readonly scan: LineScanner | null;
  private partial = '';
  private partialBytes = 0;
  private lineNo = 0;
  private offset = 0;
  private readonly head: Kept[] = [];
  private headUsed = 0;
  private headFull = false;
  /** The last complete lines, as the chunks they came in (at least the tail's window of them): the tail is cut from them. */
  private tailChunks: string[] = [];
  private tailLength = 0;
  private readonly excerpts: Kept[] = [];
  private excerptUsed = 0;
  private excerptsFull = false;
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
    this.scan = opts.markers ? opts.markers.scanner() : null;
  }

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += buf.length;
    const text = this.decoder.write(buf);
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      this.addPartial(text);
      return;
    }
    let complete: string;
    if (this.partial !== '' || this.partialBytes > 0) {
      // The line the previous chunks left open ends in this one: it is taken on its own (it may have been cut).
      const first = text.indexOf('\n');
      const piece = text.slice(0, first);
      this.line(this.partial + piece, this.partialBytes + Buffer.byteLength(piece) + 1);
      this.addTail(`${this.partial + piece}\n`);
      this.partial = '';
      this.partialBytes = 0;
      complete = text.slice(first + 1, cut + 1);
    } else {
      complete = text.slice(0, cut + 1);
    }
    if (complete !== '') this.lines(complete);
    this.addPartial(text.slice(cut + 1));
  }

  /** Ends the stream: the last line without a newline counts too. */
  end(): void {
    this.addPartial(this.decoder.end());
    if (this.partial !== '' || this.partialBytes > 0) {
      const last = this.partial;
      this.line(last, this.partialBytes);
      this.addTail(last);
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

  /** Lines that looked like the start of a failure, anywhere in the output (up to the excerpt budget's end). */
  get failureLineCount(): number {
    return this.failureLines;
  }

  private addPartial(rest: string): void {
    if (rest === '') return;
    this.partialBytes += Buffer.byteLength(rest);
    // A line that never ends is kept only up to the line cap (its bytes still count).
    if (this.partial.length <= this.maxLine) this.partial = (this.partial + rest).slice(0, this.maxLine + 1);
  }

  /** Complete lines (the text ends with a newline): the few that are kept one by one, the rest skipped in bulk. */
  private lines(text: string): void {
    let pos = 0;
    const end = text.length;
    // Terminal output (colours, redraws) is looked at line by line, through isFailureLine, which resolves it first.
    const plain = !terminalText(text);
    while (pos < end) {
      if (!this.headFull || this.afterLeft > 0 || !this.scan || !plain) {
        const nl = text.indexOf('\n', pos);
        this.line(text.slice(pos, nl), Buffer.byteLength(text.slice(pos, nl)) + 1);
        pos = nl + 1;
        continue;
      }
      if (this.excerptsFull) {
        this.skip(text.slice(pos));
        break;
      }
      const at = this.scan.find(text, pos);
      const lineStart = at >= 0 ? at : end;
      // The lines before it a failure gets as context, from this chunk.
      let from = lineStart;
      let context = 0;
      for (; at >= 0 && context < this.before && from > pos; context++) from = from >= 2 ? text.lastIndexOf('\n', from - 2) + 1 : 0;
      this.skip(text.slice(pos, from), this.scan.passed - context);
      if (at < 0) break;
      for (let a = from; a < lineStart;) {
        const nl = text.indexOf('\n', a);
        this.keepLine(text.slice(a, nl), Buffer.byteLength(text.slice(a, nl)) + 1);
        a = nl + 1;
      }
      pos = lineStart;
      // The marked line itself goes through line(), which opens the window of lines after it.
      const nl = text.indexOf('\n', pos);
      this.line(text.slice(pos, nl), Buffer.byteLength(text.slice(pos, nl)) + 1);
      pos = nl + 1;
    }
    this.addTail(text);
  }

  /**
   * Complete lines into the tail's window: whole chunks, dropped from the front once the rest covers the window (no
   * copy per chunk); a last line longer than the window is kept cut, as every kept line is.
   */
  private addTail(text: string): void {
    const window = this.tailCap + this.maxLine + 2;
    if (text.length > window && text.lastIndexOf('\n', text.length - 2) < text.length - window) {
      const start = text.lastIndexOf('\n', text.length - 2) + 1;
      this.tailChunks = [`${text.slice(start, start + this.maxLine + 1)}\n`];
      this.tailLength = this.tailChunks[0]!.length;
      return;
    }
    this.tailChunks.push(text);
    this.tailLength += text.length;
    while (this.tailChunks.length > 1 && this.tailLength - this.tailChunks[0]!.length >= window) this.tailLength -= this.tailChunks.shift()!.length;
  }

  /** Lines left out in bulk: counted (unless the scan counted them already: `lines`), their bytes counted. */
  private skip(segment: string, lines?: number): void {
    if (segment === '') return;
    let n = lines ?? 0;
    if (lines === undefined) for (let i = segment.indexOf('\n'); i >= 0; i = segment.indexOf('\n', i + 1)) n++;
    this.lineNo += n;
    this.offset += Buffer.byteLength(segment);
  }

  private make(raw: string, bytes: number): Kept {
    const no = ++this.lineNo;
    const at = this.offset;
    this.offset += bytes;
    const text = raw.length > this.maxLine ? `${raw.slice(0, this.maxLine)}…` : raw;
    return { no, at, bytes, size: Math.min(bytes, text.length + 1), text };
  }

  private keepLine(raw: string, bytes: number): void {
    this.keepExcerpt(this.make(raw, bytes));
  }

  /** One line looked at on its own: head, a failure's marker line, or a line in the window after one. */
  private line(raw: string, bytes: number): void {
    this.lastEnded = true;
    const kept = this.make(raw, bytes);
    if (!this.headFull) {
      if (this.headUsed + kept.size <= this.headCap && this.head.length === kept.no - 1 && this.head.length < MAX_END_LINES) {
        this.head.push(kept);
        this.headUsed += kept.size;
        return;
      }
      this.headFull = true;
    }
    const failing = this.isFailureLine(kept.text);
    if (failing) this.failureLines++;
    if (this.excerptsFull) return;
    if (failing) {
      this.keepExcerpt(kept);
      this.afterLeft = this.after;
    } else if (this.afterLeft > 0) {
      this.afterLeft--;
      this.keepExcerpt(kept);
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

  /** The last lines within tailCap, with their original numbers and offsets, cut from the text kept for them. */
  private tailLines(): Kept[] {
    const all = this.tailChunks.join('');
    const text = this.lastEnded ? all.slice(0, -1) : all;
    if (this.lineNo === 0) return [];
    const parts = text.split('\n');
    const out: Kept[] = [];
    let used = 0;
    let at = this.offset;
    for (let i = parts.length - 1, no = this.lineNo; i >= 0 && no >= 1; i--, no--) {
      const raw = parts[i]!;
      const bytes = Buffer.byteLength(raw) + (no === this.lineNo && !this.lastEnded ? 0 : 1);
      const t = raw.length > this.maxLine ? `${raw.slice(0, this.maxLine)}…` : raw;
      const size = Math.min(bytes, t.length + 1);
      if (out.length > 0 && (used + size > this.tailCap || out.length >= MAX_END_LINES)) break;
      at -= bytes;
      used += size;
      out.push({ no, at, bytes, size, text: t });
    }
    return out.reverse();
  }

  /**
   * The kept copy: head, failures with context, tail, in the original order, each run of left-out lines replaced by a
   * note naming their original line numbers and size. Identical to the output when nothing was left out.
   */
  toString(): string {
    const seen = new Set<number>();
    const lines: Kept[] = [];
    for (const k of [...this.head, ...this.excerpts, ...this.tailLines()]) {
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
