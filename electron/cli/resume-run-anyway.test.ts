// `ratchet resume <run-id> --run-anyway`: a run the pre-run check stopped (the environment not ready) starts its agent,
// the same run, as the app's Run anyway does and as `ratchet run --run-anyway` does for a new run (issue 29 item 6).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

describe('ratchet resume --run-anyway', () => {
  it('starts the agent of a run the pre-run check stopped; without the flag the resume is stopped by the check again', async () => {
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    writeFileSync(
      join(repo, 'ratchet.yml'),
      `setup: "true"
gates: { test: "node -e \\"require('left-pad-that-is-not-installed')\\"" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
max_retries: 0
steps: [{ title: one }]
`,
    );
    const env = { RATCHET_HOME: join(tempDir('ratchet-anyway-home-'), 'h') };
    const first = await cli(['run', repo, '--yes', '--trust', '--json'], env);
    const stopped = StatusDocument.parse(JSON.parse(first.out));
    expect(stopped).toMatchObject({ status: 'failed', reasonCode: 'environment_failed' });
    expect(stopped.steps[0]!.attempts).toEqual([]);

    const again = StatusDocument.parse(JSON.parse((await cli(['resume', stopped.id, '--yes', '--json'], env)).out));
    expect(again.steps[0]!.attempts).toEqual([]);

    const r = await cli(['resume', stopped.id, '--yes', '--json', '--run-anyway'], env);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.id).toBe(stopped.id);
    expect(doc.steps[0]!.attempts.length, r.err).toBeGreaterThan(0);
    expect(existsSync(join(doc.worktree, 'w.txt'))).toBe(true);
  });
});
