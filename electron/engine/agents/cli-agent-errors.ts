// How a CLI agent's own API failure is classified: Claude Code's stream-json result carries the HTTP status and error
// type, and its api_retry messages the wait it used (which follows the server's retry-after).
import type { AgentError } from './agent';

export interface CliFailure {
  /** `api_error_status` of the result message, when the CLI reports one. */
  status: number | null;
  /** `api_error_type` (rate_limit_error, overloaded_error, api_error, authentication_error…). */
  type: string | null;
  /** The result text ("API Error: Request rejected (429) · …"), or the exit and stderr when there is none. */
  message: string;
  /** `retry_delay_ms` of the last api_retry message: how long the CLI itself waited before its last try. */
  lastRetryDelayMs: number | null;
}

/** Pure: the agent error for a CLI agent that ended with an error. */
export function classifyCliFailure(f: CliFailure): AgentError {
  const retryAfterS = f.lastRetryDelayMs !== null && f.lastRetryDelayMs > 0 ? Math.ceil(f.lastRetryDelayMs / 1000) : null;
  const { status, type, message } = f;
  if (status === 429 || type === 'rate_limit_error')
    return { errorClass: 'rate_limit', message: `Rate limited by the API (the agent CLI): ${message}`, status, retryAfterS, retriable: true };
  if (status === 529 || type === 'overloaded_error')
    return { errorClass: 'api_error', message: `The API is overloaded (the agent CLI): ${message}`, status, retryAfterS, retriable: true };
  if (status !== null && (status >= 500 || status === 408 || status === 409))
    return { errorClass: 'api_error', message: `API error ${status} (the agent CLI): ${message}`, status, retryAfterS, retriable: true };
  if (status !== null && status >= 400) {
    const fix = status === 401 || status === 403 ? ' Check the API key the agent command uses.' : status === 404 ? ' Check the model name.' : '';
    return {
      errorClass: 'api_error',
      message: `The API refused the agent CLI's request (${status}): ${message}.${fix}`,
      status,
      retryAfterS: null,
      retriable: false,
    };
  }
  // No HTTP status: the CLI itself crashed or stopped; another attempt may well work.
  return { errorClass: 'api_error', message, status: null, retryAfterS: null, retriable: true };
}
