// The diff view (runs.attemptDiff) runs Ratchet's git outside the sandbox: it never reads a git dir the worktree's .git file names, and never runs a diff driver.
import { chmodSync, existsSync, mkdtempSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../testing/recovery-fixtures';
import { sh } from '../testing/temp-repo';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();

describe('the diff view over a worktree whose .git file was re-pointed after the run', () => {
  it("shows the attempt's diff from the repository's own objects; the textconv in the other git dir's config never runs", async () => {
    const p = setup(1);
    const { engine, service } = await harness.start({ home: p.home });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    expect((await engine.execute(runId, new AbortController().signal)).status).toBe('succeeded');
    const wt = engine.store.getRun(runId)!.worktree;

    // A git dir of the agent's, sharing the repository's objects, whose config names a textconv for every file.
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-pwn-')));
    const marker = join(dir, 'textconv-ran');
    const script = join(dir, 'pwn.sh');
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat "$1"\n`);
    chmodSync(script, 0o755);
    sh(dir, 'init', '-q', 'evil');
    renameSync(join(dir, 'evil', '.git'), join(wt, '.evil'));
    writeFileSync(join(wt, '.evil', 'objects', 'info', 'alternates'), `${join(realpathSync(p.repo), '.git', 'objects')}\n`);
    sh(join(wt, '.evil'), 'config', 'diff.pwn.textconv', script);
    writeFileSync(join(wt, '.gitattributes'), '* diff=pwn\n');
    writeFileSync(join(wt, '.git'), `gitdir: ${join(wt, '.evil')}\n`);

    const r = await service.handlers['runs.attemptDiff']({ runId, step: 1, n: 1, against: 'step' });
    expect(r.diff).toContain('+step 1 at');
    expect(existsSync(marker)).toBe(false);
    engine.close();
  });
});
