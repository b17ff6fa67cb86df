// Tests for the live gate-output stream: throttled, bounded chunks that keep the newest text and count what they drop.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { OutputStream, type OutputChunk } from './output-stream';

function collect(opts: ConstructorParameters<typeof OutputStream>[1], clock: { t: number }) {
  const chunks: OutputChunk[] = [];
  const s = new OutputStream(
    (c) => chunks.push(c),
    opts,
    () => clock.t,
  );
  return { s, chunks };
}

describe('OutputStream', () => {
  it('sends the first output at once, then at most one chunk per interval, and the rest on close', async () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const clock = { t: 0 };
    const { s, chunks } = collect({ intervalMs: 50 }, clock);
    s.push(Buffer.from('one\n'));
    expect(chunks.map((c) => c.text)).toEqual(['one\n']);
    clock.t = 10;
    s.push(Buffer.from('two\n'));
    s.push(Buffer.from('three\n'));
    expect(chunks).toHaveLength(1);
    // Held until the interval since the first chunk has passed (40 ms from now), then sent as one chunk.
    await vi.advanceTimersByTimeAsync(39);
    expect(chunks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(chunks.map((c) => c.text)).toEqual(['one\n', 'two\nthree\n']);
    clock.t = 20;
    s.push(Buffer.from('four'));
    s.close();
    s.push(Buffer.from('late'));
    expect(chunks.map((c) => [c.text, c.seq])).toEqual([
      ['one\n', 1],
      ['two\nthree\n', 2],
      ['four', 3],
    ]);
  });

  it('keeps the tail of a burst larger than a chunk, from a line start, and counts the skipped bytes', () => {
    const clock = { t: 0 };
    const { s, chunks } = collect({ intervalMs: 1000, maxChunkBytes: 100 }, clock);
    s.push(Buffer.from('x'));
    const lines = Array.from({ length: 50 }, (_, i) => `line ${String(i).padStart(2, '0')}\n`).join('');
    s.push(Buffer.from(lines));
    s.close();
    const last = chunks[1]!;
    expect(Buffer.byteLength(last.text)).toBeLessThanOrEqual(100);
    expect(last.text.endsWith('line 49\n')).toBe(true);
    expect(last.text.startsWith('line ')).toBe(true);
    expect(last.skippedBytes + Buffer.byteLength(last.text)).toBe(Buffer.byteLength(lines));
  });

  it('shrinks chunks once its byte budget is spent, and never splits a character', () => {
    const clock = { t: 0 };
    const { s, chunks } = collect({ intervalMs: 0, maxChunkBytes: 64, budgetBytes: 64, lateChunkBytes: 10 }, clock);
    s.push(Buffer.from('a'.repeat(64)));
    s.push(Buffer.from('é'.repeat(40)));
    expect(chunks[0]!.text).toBe('a'.repeat(64));
    expect(Buffer.byteLength(chunks[1]!.text)).toBeLessThanOrEqual(10);
    expect(chunks[1]!.text).toMatch(/^é+$/);
    // A character split across two pushes arrives whole.
    const c2 = collect({ intervalMs: 0 }, clock);
    const e = Buffer.from('é');
    c2.s.push(e.subarray(0, 1));
    c2.s.push(e.subarray(1));
    expect(c2.chunks.map((c) => c.text).join('')).toBe('é');
  });
});
