// Pure: what a team worker gives a submitted workflow beyond the sandbox's defaults — only what its own operator allowed
// (`ratchet worker --allow-env`, `--allow-network`, `--allow-command-agent`). A workflow comes from whoever can write the
// team database: its `sandbox.env` would hand them the worker's variables (its API key, its cloud keys) through a gate's
// output, its network entries would let the repository's code reach hosts from the worker's network, and a command agent
// runs a program the worker's operator never chose. What is not allowed is refused, visibly, before anything runs.
import type { Workflow } from '../workflow/schema';

export interface WorkerAllowances {
  /** Variable names the worker passes to a workflow that lists them in `sandbox.env`. */
  env: readonly string[];
  /** Network entries (`sandbox.network`, `setup.network`) a workflow may have, as written there (`host`, `*.domain`, `registry:npm`). */
  network: readonly string[];
  /** Whether a workflow may run an agent of kind `command` (its own program) on this worker. */
  commandAgent: boolean;
}

export const NO_ALLOWANCES: WorkerAllowances = { env: [], network: [], commandAgent: false };

/** Names a worker never passes, even when its operator lists them: its own API key, and Ratchet's (the team URL carries the database's password). */
export function neverPassed(name: string): boolean {
  return name === 'ANTHROPIC_API_KEY' || name === 'ANTHROPIC_AUTH_TOKEN' || name.startsWith('RATCHET_');
}

/** The names, hosts and agents of `workflow` this worker was not allowed to give it; empty when it may run. */
export function workerRefusals(workflow: Workflow, allow: WorkerAllowances): { env: string[]; network: string[]; commandAgent: string[] } {
  const env = [...new Set(workflow.sandbox?.env ?? [])].filter((n) => neverPassed(n) || !allow.env.includes(n));
  const entries = [...(workflow.sandbox?.network ?? []), ...(workflow.setup?.network ?? [])];
  const network = [...new Set(entries)].filter((h) => !allow.network.includes(h));
  const agents = [workflow.agent, ...(workflow.retry ?? []).map((r) => r.agent)].filter((a) => a && (a.kind === 'command' || a.command));
  const commandAgent = allow.commandAgent ? [] : [...new Set(agents.map((a) => (a?.command ?? ['(a command agent)']).join(' ')))];
  return { env, network, commandAgent };
}

/** Why this worker refuses `workflow` (which names, hosts and agent, and the worker flag that would allow each), or null. */
export function workerRefusal(workflow: Workflow, allow: WorkerAllowances): string | null {
  const r = workerRefusals(workflow, allow);
  const parts: string[] = [];
  const never = r.env.filter(neverPassed);
  const allowable = r.env.filter((n) => !neverPassed(n));
  if (allowable.length)
    parts.push(`sandbox.env ${allowable.join(', ')} (its operator allows a name with \`ratchet worker --allow-env ${allowable.join(' ')}\`)`);
  if (never.length) parts.push(`sandbox.env ${never.join(', ')} (a worker never passes its API key or Ratchet's own variables)`);
  if (r.network.length)
    parts.push(`network ${r.network.join(', ')} (its operator allows an entry with \`ratchet worker --allow-network ${r.network.join(' ')}\`)`);
  if (r.commandAgent.length)
    parts.push(`the command agent ${r.commandAgent.join('; ')} (its operator allows one with \`ratchet worker --allow-command-agent\`)`);
  if (!parts.length) return null;
  return `This worker refused the run's workflow: it asks for what the worker's operator has not allowed — ${parts.join('; ')}. Nothing was run. Remove these from the workflow, or ask the worker's operator to allow them.`;
}
