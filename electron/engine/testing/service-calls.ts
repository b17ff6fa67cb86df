// Test helpers for driving the service as a host does: a method call that throws on an error answer, and polling until a condition holds.
import { dispatch } from '../../../shared/contract';
import { toCallError, type Service } from '../service';

/** Calls `method` through the contract's dispatch (validation included) and returns its value; an error answer throws with its code. */
export async function callValue<T>(s: Service, method: string, input: unknown): Promise<T> {
  const r = await dispatch(s.handlers, method, input, toCallError);
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Resolves once `check()` holds, polling every 50 ms; throws after `ms`. */
export async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
