// Validators: the `validate` retry entries, with their `with:` inputs templated into the assessment question or the command.
import type { RunJail } from '../sandbox/os-sandbox';
import type { Agent } from '../agents/agent';
import { runGate } from '../gates/run-gate';
import { shellQuote } from '../process/shell-quote';
import type { Store } from '../store/store';
import type { AgentConfig, RetryEntry } from '../workflow/schema';
import type { Failure } from '../failures/failure';
import type { Policy } from '../policy/policy';

export interface ValidatorContext {
  worktree: string;
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox: a validator command runs inside it like a gate. */
  jail?: RunJail;
  signal: AbortSignal;
  agent: Agent;
  agentConfig: AgentConfig;
  system: string;
  context: string;
  store: Store;
  runId: string;
  attemptId: number;
  failure: Failure;
}

/**
 * The validator's text with its `with:` inputs filled in: `{name}` becomes the value (shell-quoted in a command).
 * Placeholders with no input are left as they are, so a typo stays visible (and `ratchet check` warns about it).
 */
export function validatorText(entry: Pick<RetryEntry, 'validate' | 'with'>, quote: boolean): string {
  const inputs = entry.with ?? {};
  return (entry.validate ?? '').replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(inputs, name)) return whole;
    const value = String(inputs[name]);
    return quote ? shellQuote(value) : value;
  });
}

/**
 * Evaluates the `validate` retry entries. `assess: <question>` asks the agent (one turn, its answer must say true or false);
 * anything else is a command run in the worktree (true when it exits 0 and does not print "false" last).
 */
export async function runValidators(policy: Policy, v: ValidatorContext): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  for (const [i, e] of policy.entries.entries()) {
    if (e.validate === undefined) continue;
    const assess = /^assess:\s*([\s\S]+)$/.exec(e.validate);
    if (assess) {
      const question = validatorText({ validate: assess[1] as string, with: e.with }, false);
      const result = await v.agent.run({
        worktree: v.worktree,
        system: v.system,
        context: v.context,
        model: v.agentConfig.model,
        maxTurns: 1,
        maxTokens: 512,
        session: 'new',
        sessionId: null,
        signal: v.signal,
        prompt: `Answer with one word, true or false, and nothing else.\n\n${question}\n\nThe last attempt failed with ${v.failure.errorClass}: ${v.failure.message}`,
        onUsage: (model, usage, costUsd) => v.store.recordApiCall(v.runId, v.attemptId, { model, ...usage, costUsd }),
        onTranscript: () => undefined,
      });
      const answer = result.transcript
        .filter((t) => t.kind === 'text')
        .map((t) => t.text)
        .join(' ');
      const verdict = [...answer.toLowerCase().matchAll(/\b(true|false)\b/g)].at(-1)?.[1];
      out.set(i, verdict === 'true');
      v.store.event(v.runId, 'log', { level: 'info', message: `retry entry ${i + 1} assessment: ${verdict ?? 'no answer'} (${question.slice(0, 80)})` });
      continue;
    }
    const command = validatorText(e, true);
    const r = await runGate({ name: `validate[${i}]`, run: command, timeoutS: 120 }, { cwd: v.worktree, env: v.env, jail: v.jail, signal: v.signal });
    const last = r.output.trim().split('\n').at(-1)?.trim().toLowerCase() ?? '';
    out.set(i, r.passed && last !== 'false');
  }
  return out;
}
