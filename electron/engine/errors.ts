// Errors inside the engine carry a stable code and a sentence that tells the user what to do.
import type { RunStatus } from '../../shared/domain';
import { steeringRefusal, type SteerAction } from '../../shared/run-steering';

export class RatchetError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RatchetError';
    this.code = code;
  }
}

/** Codes that mean the user gave something unusable (CLI exit code 2). */
export const BAD_INPUT_CODES = new Set([
  'not_a_directory',
  'not_git_repo',
  'bare_repo',
  'no_commits',
  'workflow_missing',
  'workflow_invalid',
  'unknown_gate',
  'gate_command_missing',
  'run_not_found',
  'bad_arguments',
  'no_branch',
  'no_plan',
  'no_completed_steps',
  'run_busy',
  'retry_config_invalid',
  'needs_approval',
  'sandbox_unavailable',
  'workflow_untrusted',
  'no_steps',
  'workflow_exists',
  'team_unreachable',
  'no_gates',
  'forge_no_token',
  'schedule_not_found',
]);

/** The one error for a run id the store does not hold (CLI exit code 2), in one wording. */
export function runNotFound(runId: string): RatchetError {
  return new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\` for the runs there are.`);
}

export function isBadInput(err: unknown): boolean {
  return err instanceof RatchetError && BAD_INPUT_CODES.has(err.code);
}

/** The abort reason of a Stop the user asked for (the app's Stop): the run ends `cancelled`, "Stopped by you". */
export function userStop(): RatchetError {
  return new RatchetError('stopped_by_user', 'Stopped by you.');
}

export function isUserStop(reason: unknown): boolean {
  return reason instanceof RatchetError && reason.code === 'stopped_by_user';
}

/**
 * Throws the steering table's refusal (shared/run-steering.ts) when a run in `status` does not allow the action: the one
 * check the local engine (Stop, Resume, Retry, Raise budget) and the team client make. `what` names the run ("Run x").
 */
export function refuseSteering(what: string, status: RunStatus, action: SteerAction): void {
  const refused = steeringRefusal(what, status, action);
  if (refused) throw new RatchetError(refused.code, refused.message);
}
