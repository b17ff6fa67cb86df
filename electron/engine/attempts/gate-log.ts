// Gate logs indexed by line and kept for a while, so runs.gateLog pages a long log without re-reading it (helpers: shared/line-index.ts).
import { indexLog, type IndexedLog } from '../../../shared/line-index';

/**
 * Indexed outputs of recently opened gates, so scrolling a 100k-line log costs one page per call, not a re-read and a
 * re-index of the whole output. A recorded gate result never changes, so entries need no invalidation; the cache is
 * bounded by the bytes it holds (the least recently used go first).
 */
export class GateLogCache {
  private readonly entries = new Map<string, IndexedLog>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string, load: () => string | null): IndexedLog | null {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const text = load();
    if (text === null) return null;
    const log = indexLog(text);
    this.entries.set(key, log);
    this.bytes += text.length * 2 + log.starts.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.entries.delete(k);
      this.bytes -= v.text.length * 2 + v.starts.byteLength;
    }
    return log;
  }
}
