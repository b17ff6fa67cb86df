// Tests for BoundedOutput and boundText: exact head/tail contents, the elision note, UTF-8 edges and fixed memory.
import { describe, expect, it } from 'vitest';
import { BoundedOutput, boundText, formatBytes } from './bounded-output';

/** Deterministic pseudo-random generator so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('formatBytes', () => {
  it('uses binary units and drops a trailing .0', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(64 * 1024)).toBe('64 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20654321)).toBe('19.7 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
  });
});

describe('BoundedOutput', () => {
  it('returns small output unchanged', () => {
    const b = new BoundedOutput(16, 16);
    b.push('hello ');
    b.push(Buffer.from('world'));
    expect(b.toString()).toBe('hello world');
    expect(b.totalBytes).toBe(11);
    expect(b.truncated).toBe(false);
  });

  it('is not truncated at exactly head + tail bytes, and is one byte later', () => {
    const b = new BoundedOutput(4, 4);
    b.push('abcdefgh');
    expect(b.truncated).toBe(false);
    expect(b.toString()).toBe('abcdefgh');
    b.push('i');
    expect(b.truncated).toBe(true);
    expect(b.toString()).toBe('abcd\n[… 1 byte elided: showing the first 4 bytes and the last 4 bytes …]\nfghi');
  });

  it('prints the note in the documented form for a 20 MB stream with default sizes', () => {
    const b = new BoundedOutput();
    const total = 20654321 + 128 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let left = total;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      b.push(chunk.subarray(0, n));
      left -= n;
    }
    const s = b.toString();
    expect(b.totalBytes).toBe(total);
    expect(s).toContain('\n[… 19.7 MB (20654321 bytes) elided: showing the first 64 KB and the last 64 KB …]\n');
    expect(s.length).toBe(128 * 1024 + '\n[… 19.7 MB (20654321 bytes) elided: showing the first 64 KB and the last 64 KB …]\n'.length);
  });

  it('keeps exactly the first and last bytes whatever the chunking', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rand = rng(seed);
      const head = 1 + Math.floor(rand() * 2000);
      const tail = 1 + Math.floor(rand() * 2000);
      let full = '';
      const b = new BoundedOutput(head, tail);
      let line = 0;
      while (full.length < 50_000) {
        // Chunks from 1 byte to well over the tail size, so every ring path (wrap, overwrite, replace) runs.
        const size = Math.floor(rand() * (rand() < 0.1 ? 5000 : 300)) + 1;
        let chunk = '';
        while (chunk.length < size) chunk += `line ${line++};`;
        chunk = chunk.slice(0, size);
        full += chunk;
        b.push(chunk);
      }
      const s = b.toString();
      const elided = full.length - head - tail;
      expect(b.totalBytes).toBe(full.length);
      expect(s.startsWith(full.slice(0, head) + '\n[… ')).toBe(true);
      expect(s.endsWith(' …]\n' + full.slice(-tail))).toBe(true);
      // head and tail are at most 2000 bytes each, so more than 1 KB is always elided and the exact count is shown.
      expect(s).toContain(`(${elided} bytes) elided`);
    }
  });

  it('never cuts a UTF-8 character in half at either boundary', () => {
    // '€' is 3 bytes: a 10-byte head holds 3 of them plus one orphan byte, which must be dropped, not shown as U+FFFD.
    const b = new BoundedOutput(10, 10);
    b.push('€'.repeat(100));
    const s = b.toString();
    expect(s).not.toContain('\uFFFD');
    expect(s.startsWith('€€€\n[… ')).toBe(true);
    expect(s.endsWith(' …]\n€€€')).toBe(true);
    // 300 bytes, 9 kept at each end.
    expect(s).toContain('[… 282 bytes elided');
  });

  it('handles characters split across pushes and 4-byte characters', () => {
    const bytes = Buffer.from('a😀b😀c'.repeat(50));
    const b = new BoundedOutput(7, 7);
    for (const byte of bytes) b.push(Buffer.from([byte]));
    const s = b.toString();
    expect(s).not.toContain('\uFFFD');
    expect(s.startsWith('a😀b\n')).toBe(true);
    expect(s.endsWith('\nb😀c')).toBe(true);
  });

  it('works with a zero-sized head or tail', () => {
    const noTail = new BoundedOutput(3, 0);
    noTail.push('abcdef');
    expect(noTail.toString()).toBe('abc\n[… 3 bytes elided: showing the first 3 bytes and the last 0 bytes …]\n');
    const noHead = new BoundedOutput(0, 3);
    noHead.push('abcdef');
    expect(noHead.toString()).toBe('\n[… 3 bytes elided: showing the first 0 bytes and the last 3 bytes …]\ndef');
  });

  it('keeps memory fixed while 512 MB stream through', () => {
    const chunk = Buffer.alloc(1024 * 1024, 'z');
    const b = new BoundedOutput();
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 512; i++) b.push(chunk);
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(b.totalBytes).toBe(512 * 1024 * 1024);
    // Only the 64 KB head and 64 KB ring were allocated; leave slack for unrelated allocations.
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    expect(b.toString().length).toBeLessThan(132 * 1024);
  });

  it('rejects negative sizes', () => {
    expect(() => new BoundedOutput(-1, 10)).toThrow(RangeError);
  });
});

describe('boundText', () => {
  it('returns text that fits unchanged', () => {
    expect(boundText('short', 5)).toBe('short');
    expect(boundText('', 0)).toBe('');
  });

  it('keeps head and tail within maxChars and counts the elided characters', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `row ${i}`).join('\n');
    const out = boundText(text, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    const m = out.match(/\n\[… (\d+) characters elided …\]\n/);
    expect(m).not.toBeNull();
    const [head, tail] = out.split(m![0]);
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    expect(head!.length + tail!.length + Number(m![1])).toBe(text.length);
    // The budget is split between both ends, not given to one.
    expect(Math.abs(head!.length - tail!.length)).toBeLessThanOrEqual(1);
    expect(head!.length).toBeGreaterThan(400);
  });

  it('never leaves half of a surrogate pair', () => {
    const text = '😀'.repeat(1000);
    for (const max of [100, 101, 102, 103, 500]) {
      const out = boundText(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(out)).toBe(false);
      const m = out.match(/\[… (\d+) characters elided …\]/)!;
      expect(out.replace(/\n\[… \d+ characters elided …\]\n/, '').length + Number(m[1])).toBe(text.length);
    }
  });

  it('falls back to a plain cut when maxChars cannot even hold the note', () => {
    expect(boundText('abcdefghijklmnopqrstuvwxyz', 5)).toBe('abcde');
  });
});
