// A dead worker's runs back on the team's queue. DBOS's public API has no call for "re-enqueue the pending workflows of
// another executor" (its Conductor service does it for a deployment): `DBOS.listWorkflows` + `DBOS.resumeWorkflow`
// comes close, but a resume would also undo a Stop that lands between the two. So this adapter is the one place
// Ratchet reaches into the SDK's internals, and dbos-recovery.test.ts fails as soon as the SDK is not the version
// this was checked against (read the new version's `recoverPendingWorkflows`, then move DBOS_SDK_CHECKED on).
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { RatchetError } from '../errors';

/** The SDK version whose `DBOSExecutor.recoverPendingWorkflows` this adapter was read against. */
export const DBOS_SDK_CHECKED = '5.3.0';

/**
 * Puts back on their queue the workflows that `executorIds` left pending (each goes on from its last durable step on
 * whichever worker dequeues it); returns their ids. Must run in a launched DBOS process (a worker). Throws when the
 * SDK no longer has the call, instead of recovering nothing in silence.
 */
export async function recoverWorkflowsOf(executorIds: string[]): Promise<string[]> {
  const executor = DBOSExecutor.globalInstance;
  if (!executor) throw new RatchetError('team_unreachable', 'DBOS is not launched in this process: it cannot take over a stopped worker’s runs.');
  if (typeof executor.recoverPendingWorkflows !== 'function')
    throw new Error(`Bug: this DBOS SDK has no recoverPendingWorkflows (checked against ${DBOS_SDK_CHECKED}); see team/dbos-recovery.ts.`);
  const handles = await executor.recoverPendingWorkflows(executorIds);
  return handles.map((h) => h.workflowID);
}
