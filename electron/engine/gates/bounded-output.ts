// Keeps the head and tail of a stream (or long string) so gate output and prompts stay bounded in memory and size.
import { terminalText } from '../../../shared/terminal-text';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** Human size in binary units: "512 bytes", "64 KB", "19.7 MB". */
export function formatBytes(n: number): string {
  if (n < KB) return n === 1 ? '1 byte' : `${n} bytes`;
  const [value, unit] = n < MB ? [n / KB, 'KB'] : n < GB ? [n / MB, 'MB'] : [n / GB, 'GB'];
  const rounded = value.toFixed(1).replace(/\.0$/, '');
  return `${rounded} ${unit}`;
}

/** Number of bytes at the end of `buf` that start a UTF-8 sequence the buffer does not finish. */
function incompleteTailLength(buf: Buffer): number {
  // A sequence is at most 4 bytes, so only the last 3 can belong to an unfinished one.
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/** Number of continuation bytes at the start of `buf` whose lead byte was cut off. */
function orphanHeadLength(buf: Buffer): number {
  let n = 0;
  while (n < Math.min(3, buf.length) && (buf[n]! & 0xc0) === 0x80) n++;
  return n;
}

/**
 * Collects a byte stream keeping only the first `headBytes` and a rolling window of the last `tailBytes`,
 * so memory stays fixed however much a gate prints.
 */
export class BoundedOutput {
  readonly headBytes: number;
  readonly tailBytes: number;
  private readonly head: Buffer;
  private headLen = 0;
  // Ring buffer for the tail; allocated on first overflow of the head because most gates print little.
  private ring: Buffer | null = null;
  private ringStart = 0;
  private ringLen = 0;
  private total = 0;

  constructor(headBytes = 64 * KB, tailBytes = 64 * KB) {
    if (!Number.isInteger(headBytes) || headBytes < 0 || !Number.isInteger(tailBytes) || tailBytes < 0) {
      throw new RangeError(`BoundedOutput: head and tail sizes must be non-negative integers (got ${headBytes}, ${tailBytes})`);
    }
    this.headBytes = headBytes;
    this.tailBytes = tailBytes;
    this.head = Buffer.alloc(headBytes);
  }

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += buf.length;
    let offset = 0;
    if (this.headLen < this.headBytes) {
      const n = Math.min(this.headBytes - this.headLen, buf.length);
      buf.copy(this.head, this.headLen, 0, n);
      this.headLen += n;
      offset = n;
    }
    if (offset < buf.length) this.pushTail(buf, offset);
  }

  private pushTail(buf: Buffer, offset: number): void {
    const cap = this.tailBytes;
    if (cap === 0) return;
    this.ring ??= Buffer.alloc(cap);
    const ring = this.ring;
    const len = buf.length - offset;
    if (len >= cap) {
      buf.copy(ring, 0, buf.length - cap);
      this.ringStart = 0;
      this.ringLen = cap;
      return;
    }
    // Write just past the newest byte, wrapping; once full, each new byte overwrites the oldest.
    let writePos = (this.ringStart + this.ringLen) % cap;
    let src = offset;
    while (src < buf.length) {
      const n = Math.min(buf.length - src, cap - writePos);
      buf.copy(ring, writePos, src, src + n);
      src += n;
      writePos = (writePos + n) % cap;
    }
    if (this.ringLen + len > cap) {
      this.ringLen = cap;
      this.ringStart = writePos;
    } else {
      this.ringLen += len;
    }
  }

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.headLen + this.ringLen;
  }

  private tailBuffer(): Buffer {
    if (!this.ring || this.ringLen === 0) return Buffer.alloc(0);
    const end = this.ringStart + this.ringLen;
    if (end <= this.tailBytes) return this.ring.subarray(this.ringStart, end);
    return Buffer.concat([this.ring.subarray(this.ringStart), this.ring.subarray(0, end - this.tailBytes)]);
  }

  toString(): string {
    const head = this.head.subarray(0, this.headLen);
    const tail = this.tailBuffer();
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    // Cut whole characters only, so the boundaries never show U+FFFD garbage.
    const headKept = head.subarray(0, head.length - incompleteTailLength(head));
    const tailKept = tail.subarray(orphanHeadLength(tail));
    const elided = this.total - headKept.length - tailKept.length;
    const amount = elided < 1024 ? formatBytes(elided) : `${formatBytes(elided)} (${elided} bytes)`;
    const note = `\n[… ${amount} elided: showing the first ${formatBytes(this.headBytes)} and the last ${formatBytes(this.tailBytes)} …]\n`;
    return headKept.toString('utf8') + note + tailKept.toString('utf8');
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Shortens `text` to at most `maxChars` UTF-16 code units (note included) by keeping its head and tail
 * around a note saying how many characters were left out. Text that fits is returned unchanged.
 */
export function boundText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const noteFor = (elided: number): string => `\n[… ${elided} characters elided …]\n`;
  // The note's length depends on the elided count, which depends on the note's length; the count's digits
  // can only shrink as the note grows, so sizing it for the worst case keeps the result within maxChars.
  const budget = maxChars - noteFor(text.length).length;
  if (budget <= 0) return text.slice(0, Math.max(0, maxChars));
  let headLen = Math.ceil(budget / 2);
  let tailStart = text.length - (budget - headLen);
  // Never leave half of a surrogate pair at either edge.
  if (headLen > 0 && isHighSurrogate(text.charCodeAt(headLen - 1))) headLen--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return text.slice(0, headLen) + noteFor(tailStart - headLen) + text.slice(tailStart);
}

/**
 * Gate output as an agent reads it: the text a terminal showed (colours, cursor moves and \r redraws resolved, so
 * no escape byte reaches a prompt and a test's name is in one piece), then bounded to `maxChars` like boundText.
 */
export function outputForAgent(output: string, maxChars: number): string {
  return boundText(terminalText(output), maxChars);
}
