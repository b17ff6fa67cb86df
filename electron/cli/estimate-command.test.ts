import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunEstimate, StatusDocument } from '../../shared/domain';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

/** A command agent (no API key, no tokens) and a gate that passes: a run that succeeds at once. */
const WORKFLOW = `agent: { kind: command, command: ["sh", "-c", "echo done >> out.txt"] }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
gates: { ok: "exit 0" }
steps:
  - title: one
  - title: two
`;

function project() {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  writeFileSync(join(repo, 'ratchet.yml'), WORKFLOW);
  return { repo, env: { RATCHET_HOME: join(tempDir('ratchet-estimate-home-'), 'h') } };
}

describe('ratchet estimate', () => {
  it('with no history prints exactly { usd, minutes, basis, confidence } (confidence none, 0 runs) and exits 0', async () => {
    const p = project();
    const r = await cli(['estimate', p.repo, '--json'], p.env);
    expect(r.code).toBe(0);
    const est = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(est).sort()).toEqual(['basis', 'confidence', 'minutes', 'usd']);
    expect(Object.keys(est.usd as object).sort()).toEqual(['p50', 'p90']);
    expect(Object.keys(est.minutes as object).sort()).toEqual(['p50', 'p90']);
    expect(Object.keys(est.basis as object)).toEqual(['runs']);
    expect(RunEstimate.parse(est)).toMatchObject({ confidence: 'none', basis: { runs: 0 } });
    const plain = await cli(['estimate', p.repo, '--task', 'Add a thing'], p.env);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/^about \$[\d.]+, up to \$[\d.]+ · .* · from the plan alone/);
  });

  it('`ratchet run` prints it at the start, its status document keeps it, and the next estimate rests on that run', async () => {
    const p = project();
    const run = await cli(['run', p.repo, '--yes', '--trust', '--json'], p.env);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^Estimate: about \$.* · from the plan alone/m);
    const doc = StatusDocument.parse(JSON.parse(run.out));
    expect(doc.estimate).toMatchObject({ confidence: 'none', basis: { runs: 0 } });
    const status = StatusDocument.parse(JSON.parse((await cli(['status', doc.id, '--json'], p.env)).out));
    expect(status.estimate).toEqual(doc.estimate);
    const next = RunEstimate.parse(JSON.parse((await cli(['estimate', p.repo, '--json'], p.env)).out));
    expect(next).toMatchObject({ confidence: 'low', basis: { runs: 1 } });
  });

  it('refuses a path that is no repository (exit 2), saying what to give', async () => {
    const r = await cli(['estimate', join(tempDir(), 'nothing'), '--json'], { RATCHET_HOME: join(tempDir(), 'h') });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not a folder/);
  });
});
