// Live gate output: a running gate's bytes gathered and handed on as bounded chunks at most every `intervalMs`.
import { StringDecoder } from 'node:string_decoder';

export interface OutputChunk {
  /** Text since the previous chunk (its tail only, when more arrived than one chunk may carry). */
  text: string;
  /** Bytes printed since the previous chunk that this one leaves out (0 when none were dropped). */
  skippedBytes: number;
  /** 1, 2, … per gate run, so a listener can tell a gap. */
  seq: number;
}

export interface OutputStreamOptions {
  /** Minimum time between two chunks. Default 200 ms. */
  intervalMs?: number;
  /** Largest chunk, in bytes of UTF-8. Default 16 KB. */
  maxChunkBytes?: number;
  /** After this many bytes were streamed, chunks shrink to `lateChunkBytes` (a gate printing for minutes stays cheap). Default 1 MB. */
  budgetBytes?: number;
  lateChunkBytes?: number;
}

/**
 * Gathers output and calls `emit` with it: the first chunk as soon as output arrives, then at most one per interval,
 * and a last one at `close()`. Each chunk is bounded; what does not fit is counted in `skippedBytes` (the tail is kept,
 * because the newest lines are what someone watching wants). The full, stored output is the gate's result, not this.
 */
export class OutputStream {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private pendingBytes = 0;
  private sent = 0;
  private seq = 0;
  private last = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly intervalMs: number;
  private readonly maxChunk: number;
  private readonly budget: number;
  private readonly lateChunk: number;

  constructor(
    private readonly emit: (chunk: OutputChunk) => void,
    opts: OutputStreamOptions = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.intervalMs = opts.intervalMs ?? 200;
    this.maxChunk = opts.maxChunkBytes ?? 16 * 1024;
    this.budget = opts.budgetBytes ?? 1024 * 1024;
    this.lateChunk = Math.min(opts.lateChunkBytes ?? 2 * 1024, this.maxChunk);
  }

  push(data: Buffer): void {
    if (this.closed) return;
    this.pending += this.decoder.write(data);
    this.pendingBytes += data.length;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Sends what is left; later pushes are ignored. */
  close(): void {
    if (this.closed) return;
    this.pending += this.decoder.end();
    this.flush();
    this.closed = true;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const limit = this.sent >= this.budget ? this.lateChunk : this.maxChunk;
    let text = this.pending;
    let skippedBytes = 0;
    if (this.pendingBytes > limit) {
      const buf = Buffer.from(text, 'utf8');
      let cut = buf.length - limit;
      // Start the kept tail at a line start when one is near, else at a character boundary.
      const nl = buf.indexOf(10, cut);
      if (nl !== -1 && nl - cut < limit / 4) cut = nl + 1;
      while (cut < buf.length && (buf[cut]! & 0xc0) === 0x80) cut++;
      text = buf.subarray(cut).toString('utf8');
      skippedBytes = cut;
    }
    this.pending = '';
    this.pendingBytes = 0;
    this.sent += Buffer.byteLength(text);
    this.last = this.now();
    this.emit({ text, skippedBytes, seq: ++this.seq });
  }
}
