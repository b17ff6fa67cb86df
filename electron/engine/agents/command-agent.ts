// The command agent: any CLI agent (Claude Code, codex, aider...) run as a subprocess in the worktree, its JSON stream parsed for progress, cost and session.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { whenAborted } from '../process/on-abort';
import { terminateGroup } from '../process/kill-group';
import { classifyCliFailure } from './cli-agent-errors';
import { silentLoopback } from '../sandbox/loopback';
import type { RunJail } from '../sandbox/os-sandbox';
import type { Agent, AgentRunInput, AgentRunResult, TranscriptEntry } from './agent';
import { priceUsage, type PricingTable, type Usage } from './pricing';

export interface CommandAgentOptions {
  /** Program and arguments; `{prompt}`, `{max_turns}`, `{model}` are replaced in each argument. */
  command: readonly string[];
  promptVia: 'arg' | 'stdin';
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox and the hosts the agent may reach through it (its API). */
  jail?: RunJail;
  apiHosts?: readonly string[];
  /** Prices the CLI's token usage when it reports no cost of its own. */
  pricing?: PricingTable;
}

// Claude Code's `usage` (Anthropic API field names) on its `result` line.
const StreamUsage = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
});

export function usageOfStream(u: z.infer<typeof StreamUsage>): Usage {
  return {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
  };
}

// Claude Code's stream-json lines; other CLIs' lines that do not match are shown as text.
const StreamLine = z.looseObject({
  type: z.string(),
  subtype: z.string().optional(),
  session_id: z.string().optional(),
  total_cost_usd: z.number().optional(),
  is_error: z.boolean().optional(),
  num_turns: z.number().optional(),
  result: z.string().optional(),
  api_error_status: z.number().nullable().optional(),
  api_error_type: z.string().nullable().optional(),
  retry_delay_ms: z.number().optional(),
  usage: StreamUsage.optional(),
  message: z
    .looseObject({
      content: z.array(z.looseObject({ type: z.string(), text: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() })).optional(),
    })
    .optional(),
});

/** Linux refuses one argument past 128 KiB (MAX_ARG_STRLEN) with E2BIG; a prompt past this goes through stdin instead. */
export const MAX_PROMPT_ARG_BYTES = 100 * 1024;

/** Whether the prompt goes through stdin: always when configured so, and when it is too long to be an argument. */
export function promptThroughStdin(promptVia: 'arg' | 'stdin', prompt: string): boolean {
  return promptVia === 'stdin' || Buffer.byteLength(prompt, 'utf8') > MAX_PROMPT_ARG_BYTES;
}

export function fillTemplate(args: readonly string[], values: Record<string, string>): string[] {
  return args.map((a) => a.replace(/\{(prompt|max_turns|model)\}/g, (_, k: string) => values[k] ?? ''));
}

export function createCommandAgent(opts: CommandAgentOptions): Agent {
  return {
    kind: 'command',
    async run(input: AgentRunInput): Promise<AgentRunResult> {
      const transcript: TranscriptEntry[] = [];
      const note = (e: TranscriptEntry) => {
        transcript.push(e);
        input.onTranscript(e);
      };
      const fullPrompt = `${input.system}\n\n${input.context}\n\n${input.prompt}`;
      const viaStdin = promptThroughStdin(opts.promptVia, fullPrompt);
      // An argument that is only `{prompt}` is left out when the prompt goes through stdin (`claude -p` then reads stdin).
      const template = viaStdin && opts.promptVia === 'arg' ? opts.command.filter((a) => a !== '{prompt}') : opts.command;
      const args = fillTemplate(template, {
        prompt: viaStdin ? '' : fullPrompt,
        max_turns: String(input.maxTurns),
        model: input.model,
      });
      if (input.session === 'continue' && input.sessionId) args.push('--resume', input.sessionId);
      const [program, ...rest] = args;
      // A gateway on this machine is reached through the sandbox's proxy (see viaProxy); when nothing listens there the
      // agent would retry into its timeout with no word, so say it now.
      const silent = opts.jail?.sandboxed ? await silentLoopback(opts.apiHosts ?? []) : null;
      if (silent) {
        const message = `Nothing answers at the agent's API endpoint ${silent} (ANTHROPIC_BASE_URL) on this machine: start the gateway there, or point ANTHROPIC_BASE_URL at one that runs.`;
        note({ kind: 'error', text: message });
        return {
          stop: 'error',
          error: { errorClass: 'api_error', message, status: null, retryAfterS: null, retriable: true },
          transcript,
          sessionId: null,
          turns: 0,
          reportedCostUsd: null,
        };
      }
      const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
      const launch = opts.jail
        ? await opts.jail.wrap('/bin/sh', `exec ${args.map(quote).join(' ')}`, { extraHosts: opts.apiHosts, viaProxy: opts.apiHosts, env: opts.env })
        : { file: program ?? '', args: rest, env: opts.env, done() {} };
      return new Promise((resolve) => {
        let sessionId: string | null = null;
        let cost: number | null = null;
        let turns = 0;
        let isError = false;
        let resultText = '';
        let apiStatus: number | null = null;
        let apiType: string | null = null;
        let lastRetryDelayMs: number | null = null;
        let child: ChildProcessWithoutNullStreams;
        try {
          child = spawn(launch.file, launch.args, { cwd: input.worktree, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        } catch (err) {
          launch.done();
          const message = `could not start the agent command \`${program}\`: ${(err as Error).message}`;
          note({ kind: 'error', text: message });
          resolve({
            stop: 'error',
            error: { errorClass: 'unknown', message, status: null, retryAfterS: null, retriable: false },
            transcript,
            sessionId,
            turns,
            reportedCostUsd: cost,
          });
          return;
        }
        child.once('close', () => launch.done());
        const kill = () => terminateGroup(child.pid);
        whenAborted(input.signal, kill);
        child.stdin.on('error', () => undefined);
        if (viaStdin) child.stdin.end(fullPrompt);
        else child.stdin.end();
        const lines = createInterface({ input: child.stdout });
        lines.on('line', (line) => {
          let json: unknown;
          try {
            json = JSON.parse(line);
          } catch {
            if (line.trim()) note({ kind: 'text', text: line });
            return;
          }
          const parsed = StreamLine.safeParse(json);
          if (!parsed.success) return;
          const m = parsed.data;
          if (m.session_id) sessionId = m.session_id;
          if (m.type === 'system' && m.subtype === 'api_retry' && m.retry_delay_ms !== undefined) lastRetryDelayMs = m.retry_delay_ms;
          if (m.type === 'assistant') {
            turns++;
            for (const b of m.message?.content ?? []) {
              if (b.type === 'text' && b.text) note({ kind: 'text', text: b.text });
              if (b.type === 'tool_use') note({ kind: 'tool_use', text: b.name ?? 'tool', name: b.name, input: b.input });
            }
          } else if (m.type === 'result') {
            if (m.total_cost_usd !== undefined) cost = m.total_cost_usd;
            if (m.num_turns !== undefined) turns = m.num_turns;
            isError = m.is_error === true;
            resultText = m.result ?? '';
            apiStatus = m.api_error_status ?? null;
            apiType = m.api_error_type ?? null;
            if (m.usage) {
              // Tokens recorded once per attempt through the same path as the Anthropic agent; the CLI's own cost wins
              // over the table's price, and is then not reported a second time (reportedCostUsd: null).
              const usage = usageOfStream(m.usage);
              const priced = opts.pricing ? priceUsage(opts.pricing, input.model, usage) : null;
              input.onUsage(input.model, usage, cost ?? priced);
              cost = null;
            }
          }
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => {
          if (stderr.length < 8000) stderr += d.toString('utf8');
        });
        child.on('error', (err) => {
          note({ kind: 'error', text: err.message });
          resolve({
            stop: 'error',
            error: {
              errorClass: 'unknown',
              message: `could not start the agent command \`${program}\`: ${err.message}`,
              status: null,
              retryAfterS: null,
              retriable: false,
            },
            transcript,
            sessionId,
            turns,
            reportedCostUsd: cost,
          });
        });
        child.on('close', (code, signal) => {
          input.signal.removeEventListener('abort', kill);
          if (input.signal.aborted) {
            resolve({ stop: 'aborted', error: null, transcript, sessionId, turns, reportedCostUsd: cost });
            return;
          }
          if (code !== 0 || isError) {
            const message = `the agent command exited with ${code ?? signal}${resultText ? `: ${resultText}` : ''}${stderr ? `\n${stderr.trim()}` : ''}`;
            note({ kind: 'error', text: message });
            // Claude Code says which HTTP status ended it (429 → rate_limit with the wait it used, 529/5xx → api_error).
            const error = classifyCliFailure({ status: apiStatus, type: apiType, message, lastRetryDelayMs });
            resolve({ stop: 'error', error, transcript, sessionId, turns, reportedCostUsd: cost });
            return;
          }
          resolve({ stop: 'end_turn', error: null, transcript, sessionId, turns, reportedCostUsd: cost });
        });
      });
    },
  };
}
