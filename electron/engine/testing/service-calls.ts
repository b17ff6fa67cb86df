// Test helpers for driving the service as a host does: a method call that throws on an error answer, and polling until a condition holds.
import { dispatch } from '../../../shared/contract';
import { toCallError, type Service } from '../service/service';

// The polling helper lives in shared/testing (one for all tests); re-exported here for the engine's tests that import it from this module.
export { until } from '../../../shared/testing/until';

/** Calls `method` through the contract's dispatch (validation included) and returns its value; an error answer throws with its code. */
export async function callValue<T>(s: Service, method: string, input: unknown): Promise<T> {
  const r = await dispatch(s.handlers, method, input, toCallError);
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Calls `method` through the contract's dispatch and returns its answer as it is: `{ ok: true, value }` or `{ ok: false, error }`. */
export const callResult = (s: Service, method: string, input: unknown) => dispatch(s.handlers, method, input, toCallError);
