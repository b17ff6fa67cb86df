// Notices grouped by what happened ("3 runs failed"), failures first: what the notices area shows instead of a pile.
import type { Notice } from '../stores/ui';

export interface NoticeGroup {
  key: string;
  level: Notice['level'];
  /** "3 runs failed", "Run succeeded", "Task budget alert". */
  label: string;
  items: Array<Notice & { subject: string }>;
}

const LEVEL_ORDER: Record<Notice['level'], number> = { error: 0, warn: 1, info: 2 };

/** "Run failed: Division" → kind "Run failed", subject "Division"; a title without a subject is its own kind. */
function split(title: string): { kind: string; subject: string } {
  const i = title.indexOf(': ');
  return i > 0 ? { kind: title.slice(0, i), subject: title.slice(i + 2) } : { kind: title, subject: '' };
}

/** What a group of `n` notices of one kind is called. */
function label(kind: string, n: number): string {
  if (n === 1) return kind;
  const run = /^Run (failed|succeeded|needs you)$/.exec(kind);
  if (run) return `${n} runs ${run[1] === 'needs you' ? 'need you' : run[1]}`;
  return `${kind} (${n})`;
}

/** Groups by level and kind, most serious first, each group in arrival order. */
export function groupNotices(notices: readonly Notice[]): NoticeGroup[] {
  const groups = new Map<string, NoticeGroup>();
  for (const n of notices) {
    const { kind, subject } = split(n.title);
    const key = `${n.level}|${kind}`;
    const g = groups.get(key) ?? { key, level: n.level, label: kind, items: [] };
    g.items.push({ ...n, subject });
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, label: label(g.label, g.items.length) }))
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
}
