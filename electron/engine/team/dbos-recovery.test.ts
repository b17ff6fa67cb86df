// The one reach into the DBOS SDK's internals (dbos-recovery.ts) fails loudly on an SDK upgrade, before a worker's
// takeover of a dead worker's runs silently recovers nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { describe, expect, it } from 'vitest';
import { DBOS_SDK_CHECKED, recoverWorkflowsOf } from './dbos-recovery';

const sdkDir = dirname(dirname(dirname(createRequire(import.meta.url).resolve('@dbos-inc/dbos-sdk'))));

describe('dbos-recovery (the SDK internal a takeover uses)', () => {
  it('is pinned to the DBOS SDK version it was read against', () => {
    const { version } = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string };
    expect(
      version,
      `The DBOS SDK is ${version}, not ${DBOS_SDK_CHECKED}: read its DBOSExecutor.recoverPendingWorkflows (does it still re-enqueue a given executor's PENDING workflows on their queue and return their handles?), or a public call that does it, then update team/dbos-recovery.ts`,
    ).toBe(DBOS_SDK_CHECKED);
  });

  it('finds the internal it calls, re-enqueueing by executor id as it did when checked', () => {
    expect(typeof DBOSExecutor.prototype.recoverPendingWorkflows).toBe('function');
    const source = DBOSExecutor.prototype.recoverPendingWorkflows.toString();
    expect(source).toContain('reenqueueWorkflowsForRecovery');
    expect(readFileSync(join(sdkDir, 'dist/src/dbos-executor.d.ts'), 'utf8')).toContain(
      'recoverPendingWorkflows(executorIDs?: string[]): Promise<WorkflowHandle<unknown>[]>',
    );
  });

  it('refuses, saying why, outside a launched DBOS process', async () => {
    await expect(recoverWorkflowsOf(['gone'])).rejects.toThrow(/not launched/);
  });
});
