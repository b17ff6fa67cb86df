// Notices grouped by what happened ("3 runs failed"), failures first: what the notices area shows instead of a pile.
// Grouping is decided by each notice's code; its title's words are only shown.
import type { NoticeCode } from '../../../shared/contract';
import type { Notice } from '../stores/ui';

export interface NoticeGroup {
  key: string;
  level: Notice['level'];
  /** "3 runs failed", "Run succeeded", "Task budget alert". */
  label: string;
  items: Array<Notice & { subject: string }>;
}

const LEVEL_ORDER: Record<Notice['level'], number> = { error: 0, warn: 1, info: 2 };

/** Codes whose notices of many runs are one group, and what `n` of them are called. */
const MANY: Partial<Record<NoticeCode, (n: number) => string>> = {
  'run.failed': (n) => `${n} runs failed`,
  'run.succeeded': (n) => `${n} runs succeeded`,
  'run.needs_you': (n) => `${n} runs need you`,
};

/** "Run failed: Division" → kind "Run failed", subject "Division"; a title without a subject is its own kind. */
function split(title: string): { kind: string; subject: string } {
  const i = title.indexOf(': ');
  return i > 0 ? { kind: title.slice(0, i), subject: title.slice(i + 2) } : { kind: title, subject: '' };
}

/** Groups by level and code, most serious first, each group in arrival order. */
export function groupNotices(notices: readonly Notice[]): NoticeGroup[] {
  const groups = new Map<string, NoticeGroup & { code: NoticeCode }>();
  for (const n of notices) {
    const { kind, subject } = split(n.title);
    // Runs' outcomes group by code alone; other notices of one code (a menu command's) by what their titles name too.
    const key = MANY[n.code] ? `${n.level}|${n.code}` : `${n.level}|${n.code}|${kind}`;
    const g = groups.get(key) ?? { key, code: n.code, level: n.level, label: kind, items: [] };
    g.items.push({ ...n, subject });
    groups.set(key, g);
  }
  return [...groups.values()]
    .map(({ code, ...g }) => ({ ...g, label: g.items.length === 1 ? g.label : (MANY[code]?.(g.items.length) ?? `${g.label} (${g.items.length})`) }))
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
}
