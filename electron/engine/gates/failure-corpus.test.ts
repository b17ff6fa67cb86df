// The corpus of real tool outputs (corpus/, re-recorded by scripts/record-corpus/record.sh): every parser and the
// classifier against hand-written truth, with the goals: class 100 %, name ≥ 95 %, values and file:line ≥ 90 %.
import { describe, expect, it } from 'vitest';
import { formatScore, loadCorpus, pct, scoreCorpus } from './testing/failure-corpus';

const cases = loadCorpus();

describe('failure corpus', () => {
  it('has at least 60 cases across the tools', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.id.split('/')[0])).size).toBeGreaterThanOrEqual(10);
  });

  it('meets the goals on every case, and on each held-out batch alone', () => {
    const all = scoreCorpus(cases);
    const batches = [...new Set(cases.map((c) => c.truth.heldOut).filter((b): b is number => b !== undefined))].sort();
    const held = batches.map((b) => ({ b, score: scoreCorpus(cases.filter((c) => c.truth.heldOut === b)) }));
    console.log([formatScore('failure corpus, all cases', all), ...held.map((h) => formatScore(`held-out batch ${h.b}`, h.score))].join('\n'));
    if (all.misses.length > 0) console.log(`misses:\n  ${all.misses.join('\n  ')}`);
    expect(batches.length).toBeGreaterThan(0);
    for (const s of [all, ...held.map((h) => h.score)]) {
      expect(pct([s.classOk, s.cases])).toBe(100);
      expect(pct(s.names)).toBeGreaterThanOrEqual(95);
      expect(pct(s.expected)).toBeGreaterThanOrEqual(90);
      expect(pct(s.actual)).toBeGreaterThanOrEqual(90);
      expect(pct(s.location)).toBeGreaterThanOrEqual(90);
    }
  });

  it('reads monorepo runners whole: pnpm -r prefixes removed, locations from the repository root (issue 29: 4)', () => {
    const mono = cases.filter((c) => c.id.startsWith('monorepo/'));
    const s = scoreCorpus(mono);
    expect(mono.length).toBeGreaterThanOrEqual(5);
    expect(s.misses).toEqual([]);
    expect([pct(s.names), pct(s.expected), pct(s.actual), pct(s.location)]).toEqual([100, 100, 100, 100]);
  });
});
