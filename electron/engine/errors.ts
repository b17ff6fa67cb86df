// Errors inside the engine carry a stable code and a sentence that tells the user what to do.
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
