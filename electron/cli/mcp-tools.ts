// The tools `ratchet mcp` offers another agent, each a thin map onto the contract's methods: their input and output
// schemas are the contract's zod schemas (picked, omitted or wrapped, never written again), and each call goes through
// the contract's own dispatch, so the rules of the app and the CLI (trust, budgets, the queue, the sandbox) hold here.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AttemptDetail,
  dispatch,
  GATE_LOG_MAX_LINES,
  GateLogPage,
  GateOutputDoc,
  methods,
  ReviewDoc,
  type CallError,
  type Handlers,
  type MethodName,
} from '../../shared/contract';
import { StatusDocument } from '../../shared/domain';
import { toCallError, UntrustedWorkflow, type Engine } from '../engine';

/** What the tools need: the contract's handlers (a local service) and the engine's trust check for retry and resume. */
export interface McpDeps {
  handlers: Handlers;
  /** Throws `workflow_untrusted` when the version a run started with is no longer trusted (the engine's checkRunTrust). */
  checkRunTrust: Engine['checkRunTrust'];
  /** Team mode: runs go to the team's workers, and status, list and steering act on the team's runs. */
  team: boolean;
  version: string;
}

/** Lines `logs` answers when the caller does not say. */
export const LOGS_PAGE = 200;

/** Starting a run from another agent: the contract's StartRunInput without what only a person may answer (trust) or the host decides (team). */
export const McpRunInput = methods['runs.start'].input.omit({ trust: true, trustSha256: true, team: true });
const RunId = methods['runs.get'].input;

/** A failing step's gates with their failing tests (their output left out), and one page of one gate's output. */
export const LogsInput = RunId.extend({
  step: z.number().int().min(1),
  /** The attempt (default: the step's last). */
  attempt: z.number().int().min(1).optional(),
  /** The gate whose output is paged (default: the first that failed, else the first). */
  gate: z.string().min(1).optional(),
  from: z.number().int().min(0).default(0),
  count: z.number().int().min(1).max(GATE_LOG_MAX_LINES).default(LOGS_PAGE),
});
export const LogsOutput = AttemptDetail.pick({ runId: true, step: true, n: true, outcome: true, errorClass: true, errorMessage: true }).extend({
  gates: z.array(GateOutputDoc.omit({ output: true, lineCount: true, partial: true })),
  log: GateLogPage.extend({ gate: z.string() }).nullable(),
});

/** Line comments on a run's change, then (unless `send` is false) one review round that sends every pending one to the agent. */
export const ReviewInput = RunId.extend({
  comments: z.array(methods['review.comment'].input.omit({ runId: true })).default([]),
  send: z.boolean().default(true),
});
export const ReviewOutput = ReviewDoc.extend({ queued: z.boolean().nullable() });

type Result = CallToolResult;
const ok = (value: Record<string, unknown>): Result => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value });
const fail = (e: CallError): Result => ({ isError: true, content: [{ type: 'text', text: `${e.message} (${e.code})` }] });

class ToolError extends Error {
  constructor(readonly error: CallError) {
    super(error.message);
  }
}

/**
 * The server cannot ask its user to trust a workflow: it refuses and says which command, run in a terminal, trusts it.
 * Every other error is the contract's code and sentence.
 */
function mcpError(tool: string, input: Record<string, unknown>) {
  return (err: unknown): CallError => {
    if (err instanceof UntrustedWorkflow) {
      const repo = JSON.stringify(String(input.repo ?? '<repo>'));
      const flag = input.workflowFile ? ` --workflow ${JSON.stringify(String(input.workflowFile))}` : '';
      return {
        code: err.code,
        message: `${err.shown}\nNothing was run: this server cannot ask you. Read the file, then trust it in a terminal with \`ratchet trust ${repo}${flag}\` (or in the app's New task screen) and call ${tool} again.`,
      };
    }
    const e = toCallError(err);
    if (e.code === 'workflow_untrusted' && typeof input.runId === 'string')
      return {
        code: e.code,
        message: `${e.message.replace(/ pass --trust .*$/s, '')} This server cannot ask you: trust that version again in a terminal with \`ratchet ${tool} ${input.runId} --trust\` (it continues the run there), or start a new run.`,
      };
    return e;
  };
}

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'ratchet', version: deps.version });
  async function call<M extends MethodName>(method: M, input: unknown, toError: (err: unknown) => CallError): Promise<z.output<(typeof methods)[M]['output']>> {
    const r = await dispatch(deps.handlers, method, input, toError);
    if (!r.ok) throw new ToolError(r.error);
    return r.value as never;
  }
  function tool<I extends z.ZodObject, O extends z.ZodObject>(
    name: string,
    description: string,
    input: I,
    output: O,
    run: (input: z.output<I>, toError: (err: unknown) => CallError) => Promise<z.output<O>>,
  ): void {
    server.registerTool(name, { description, inputSchema: input, outputSchema: output }, (async (args: unknown) => {
      const parsed = input.safeParse(args ?? {});
      if (!parsed.success)
        return fail({ code: 'bad_input', message: `${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}` });
      const toError = mcpError(name, parsed.data as Record<string, unknown>);
      try {
        return ok((await run(parsed.data, toError)) as Record<string, unknown>);
      } catch (err) {
        return fail(err instanceof ToolError ? err.error : toError(err));
      }
    }) as never);
  }
  const where = deps.team ? ' on the team' : '';

  tool(
    'estimate',
    "What a run would cost (USD) and take (minutes), p50 and p90, from this repository's past runs; nothing is started.",
    methods['runs.estimate'].input.omit({ trust: true, trustSha256: true, team: true }),
    methods['runs.estimate'].output,
    (i, e) => call('runs.estimate', i, e),
  );
  tool(
    'run',
    `Starts a run${where} of a task on a repository (its workflow file, or the steps given) and answers its id at once; follow it with status. ` +
      'A repository workflow file runs only if the user trusted it before (refused otherwise, naming the command that trusts it); budgets, the daily cap and the sandbox apply.',
    McpRunInput,
    methods['runs.start'].output,
    (i, e) => call('runs.start', { ...i, ...(deps.team ? { team: true } : {}) }, e),
  );

  if (deps.team) {
    tool('status', "A team run's state and, once a worker has it, its status document.", RunId, methods['team.status'].output, (i, e) =>
      call('team.status', i, e),
    );
    tool('list', "The team's runs, newest first.", z.object({}), z.object({ runs: methods['team.list'].output }), async (_i, e) => ({
      runs: await call('team.list', {}, e),
    }));
    for (const verb of ['retry', 'resume', 'stop'] as const)
      tool(verb, `${verb[0]!.toUpperCase()}${verb.slice(1)}s a team run (through its durable workflow).`, RunId, methods[`team.${verb}`].output, (i, e) =>
        call(`team.${verb}`, i, e),
      );
    return server;
  }

  tool(
    'status',
    "A run's status document: its status and why, each step's attempts (outcome, error class, failing tests), cost, policy.",
    RunId,
    StatusDocument,
    (i, e) => call('runs.get', i, e),
  );
  tool(
    'list',
    'Runs, newest first (page with `before`: the last item of the previous page).',
    methods['runs.list'].input,
    z.object({ runs: methods['runs.list'].output }),
    async (i, e) => ({
      runs: await call('runs.list', i, e),
    }),
  );
  tool(
    'logs',
    "One step's attempt (default: its last): each gate's result with its failing tests, and lines [from, from + count) of one gate's output.",
    LogsInput,
    LogsOutput,
    async (i, e) => {
      const doc = await call('runs.get', { runId: i.runId }, e);
      const step = doc.steps.find((s) => s.index === i.step);
      if (!step) throw new ToolError({ code: 'bad_arguments', message: `Run ${i.runId} has no step ${i.step} (it has ${doc.steps.length}).` });
      const n = i.attempt ?? step.attempts.at(-1)?.n;
      if (!n) throw new ToolError({ code: 'bad_arguments', message: `Step ${i.step} of run ${i.runId} has no attempt yet.` });
      const a = await call('runs.attempt', { runId: i.runId, step: i.step, n, outputHeadLines: 1 }, e);
      const gate = i.gate ?? (a.gates.find((g) => !g.passed) ?? a.gates[0])?.gate;
      const page = gate ? await call('runs.gateLog', { runId: i.runId, step: i.step, n, gate, from: i.from, count: i.count }, e) : null;
      return {
        runId: a.runId,
        step: a.step,
        n: a.n,
        outcome: a.outcome,
        errorClass: a.errorClass,
        errorMessage: a.errorMessage,
        gates: a.gates.map(({ output: _o, lineCount: _l, partial: _p, ...g }) => g),
        log: page && gate ? { gate, ...page } : null,
      };
    },
  );
  tool(
    'retry',
    'Continues a failed run from its next incomplete step (with the workflow it started with; refused if that version is no longer trusted).',
    RunId,
    methods['runs.retry'].output,
    async (i, e) => {
      deps.checkRunTrust(i.runId);
      return call('runs.retry', i, e);
    },
  );
  tool(
    'resume',
    'Resumes an interrupted, paused or waiting run from its last checkpoint (refused if the workflow version it started with is no longer trusted).',
    methods['runs.resume'].input,
    methods['runs.resume'].output,
    async (i, e) => {
      deps.checkRunTrust(i.runId);
      return call('runs.resume', i, e);
    },
  );
  tool('stop', 'Stops a run: it pauses where it is and can be resumed.', RunId, methods['runs.stop'].output, (i, e) => call('runs.stop', i, e));
  tool(
    'review',
    "Line comments on a succeeded run's change (lines of the new side), then one review round sending every pending comment to the agent " +
      '(a step "Address review" whose gates must pass); answers the run\'s comments, with each one\'s answer once the round ran, and its rounds.',
    ReviewInput,
    ReviewOutput,
    async (i, e) => {
      for (const c of i.comments) await call('review.comment', { runId: i.runId, ...c }, e);
      const sent = i.send && (await call('review.get', { runId: i.runId }, e)).comments.some((c) => c.state === 'pending');
      const queued = sent ? (await call('review.send', { runId: i.runId }, e)).queued : null;
      return { ...(await call('review.get', { runId: i.runId }, e)), queued };
    },
  );
  return server;
}
