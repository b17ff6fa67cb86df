// Which interruptions the app has already offered to resume, kept in the browser's storage so a reload does not offer
// them again: one offer per interruption (a run interrupted again later is a new one).

const KEY = 'ratchet.resumeOffered.v1';
/** Enough for any real history; the oldest are dropped first. */
const KEEP = 200;

/** One interruption: the run, and when it became interrupted (its list entry's updatedAt). */
const mark = (r: { id: string; updatedAt: string }) => `${r.id}@${r.updatedAt}`;

function read(): string[] {
  try {
    const v: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function wasOffered(r: { id: string; updatedAt: string }): boolean {
  return read().includes(mark(r));
}

export function markOffered(runs: ReadonlyArray<{ id: string; updatedAt: string }>): void {
  const seen = read();
  const fresh = runs.map(mark).filter((m) => !seen.includes(m));
  if (fresh.length === 0) return;
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify([...seen, ...fresh].slice(-KEEP)));
  } catch {
    // Storage full or off: the offer may come again after a reload, which is harmless.
  }
}
