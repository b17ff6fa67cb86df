// Workspace trust: the hash of an in-repository workflow file's content (the record of what the user trusted: store/trust-queries.ts; what it would do: trust-items.ts).
import { createHash } from 'node:crypto';

export function workflowHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
