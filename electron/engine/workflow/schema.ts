// The workflow file's schema (ratchet.yml): gates, agent, retry settings, budgets and steps. Later issues' keys are validated here too.
import { z } from 'zod';
import { ErrorClass, StepSpec, TddSetting } from '../../../shared/domain';
import { WorkflowNotify } from '../../../shared/notify';

const positive = z.number().positive();

// A gate is `{ run, timeout, report?, restart?, allow_no_tests? }`; a bare string is shorthand for `{ run: <string> }`.
export const GateConfig = z.preprocess(
  (v) => (typeof v === 'string' ? { run: v } : v),
  z
    .object({
      run: z.string().min(1, 'a gate needs a command in `run`'),
      /** Seconds; unset: the preset's gate timeout, else 300. */
      timeout: positive.optional(),
      report: z.string().min(1).optional(),
      restart: z.string().min(1).optional(),
      /** A gate whose runner's summary or report counts 0 tests fails ("the gate ran no tests") unless this is true. */
      allow_no_tests: z.boolean().optional(),
    })
    .strict(),
);
export type GateConfig = z.infer<typeof GateConfig>;

export const AgentConfig = z
  .object({
    kind: z.enum(['anthropic', 'command']).default('anthropic'),
    model: z.string().min(1).default('claude-sonnet-5-5'),
    max_turns: z.number().int().positive().default(40),
    max_tokens: z.number().int().positive().default(8192),
    /** For kind `command`: the program and its arguments; `{prompt}`, `{max_turns}`, `{model}` are filled in. */
    command: z.array(z.string()).min(1).optional(),
    prompt_via: z.enum(['arg', 'stdin']).default('arg'),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.kind === 'command' && !a.command) {
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: 'an agent of kind `command` needs `command`, e.g. ["claude", "-p", "{prompt}", "--output-format", "stream-json", "--verbose"]',
      });
    }
  });
export type AgentConfig = z.infer<typeof AgentConfig>;

export const AgentOverride = z
  .object({
    kind: z.enum(['anthropic', 'command']).optional(),
    model: z.string().min(1).optional(),
    max_turns: z.number().int().positive().optional(),
    command: z.array(z.string()).min(1).optional(),
  })
  .strict();

const gateRef = z.string().regex(/^gate\.[A-Za-z0-9_-]+$/, 'write a gate condition as `gate.<name>`');

/** One entry of the retry list: conditions, then overrides that apply from the attempt it matches. */
export const RetryEntry = z
  .object({
    attempt: z.number().int().min(1).optional(),
    not: gateRef.optional(),
    validate: z.string().min(1).optional(),
    /** Inputs of the `validate` validator: `{name}` in its command or assessment question is replaced by the value. */
    with: z
      .record(z.string().regex(/^[A-Za-z_][\w-]*$/, 'a `with` key is a name: letters, digits, - and _'), z.union([z.string(), z.number(), z.boolean()]))
      .optional(),
    exit: z.number().int().min(1).optional(),
    agent: AgentOverride.optional(),
    session: z.enum(['new', 'continue']).optional(),
    worktree: z.enum(['reset', 'keep']).optional(),
    prompt: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.with !== undefined && e.validate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['with'], message: '`with` gives a validator its inputs; it needs `validate` in the same entry' });
    }
    const conditions = (['attempt', 'not', 'validate', 'exit'] as const).filter((k) => e[k] !== undefined);
    if (conditions.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          conditions.length === 0
            ? 'a retry entry needs one condition: attempt, not, validate or exit'
            : `a retry entry has exactly one condition, this one has ${conditions.join(' and ')}`,
      });
    }
  });
export type RetryEntry = z.infer<typeof RetryEntry>;

/** A pull request's remote gates (CI and review rounds, forge/pr-loop.ts) have their own limits beside the error classes'. */
export const CI_LIMIT_KEYS = ['ci_failure', 'ci_flaky', 'ci_infrastructure'] as const;
export const Limits = z.partialRecord(z.enum([...ErrorClass.options, ...CI_LIMIT_KEYS]), z.number().int().min(0));
export type Limits = z.infer<typeof Limits>;

export const Backoff = z
  .object({
    base_s: z.number().min(0).default(60),
    max_s: z.number().min(0).default(300),
    jitter: z.number().min(0).max(1).default(0.1),
  })
  .strict();
export type Backoff = z.infer<typeof Backoff>;

export const Budget = z
  .object({
    task_usd: positive.optional(),
    daily_usd: positive.optional(),
    alert_at: z.number().gt(0).max(1).default(0.8),
  })
  .strict();

export const ClassRule = z
  .object({
    pattern: z
      .string()
      .min(1)
      .refine((p) => {
        try {
          new RegExp(p);
          return true;
        } catch {
          return false;
        }
      }, 'not a valid regular expression'),
    class: ErrorClass,
  })
  .strict();

/** Steps are defined once, in shared/, because the app's screens edit them too. */
export const StepConfig = StepSpec;
export type StepConfig = z.infer<typeof StepConfig>;

/** The package registries a workflow can name without knowing their host: resolved at run time from the tool's own configuration. */
export const REGISTRY_PRESETS = ['npm', 'pypi', 'cargo', 'go', 'maven'] as const;
export type RegistryPreset = (typeof REGISTRY_PRESETS)[number];

/** A host a sandboxed command may reach (`*.` in front, `:port` after), or `registry:<ecosystem>` for the registry the user's tool is configured with. */
export const NetworkEntry = z
  .string()
  .regex(
    new RegExp(`^((\\*\\.)?[A-Za-z0-9.-]+(:\\d+)?|registry:(${REGISTRY_PRESETS.join('|')}))$`),
    `a host name, optionally with *. in front or :port after (e.g. git.example.com), or registry:<${REGISTRY_PRESETS.join('|')}>`,
  );

/**
 * The worktree's environment: commands that make a fresh worktree ready to test (install dependencies), run in the
 * sandbox when the worktree is made and again when one of `inputs` changed since, with their own timeout and network.
 */
export const SetupConfig = z.preprocess(
  (v) => (typeof v === 'string' || Array.isArray(v) ? { run: v } : v),
  z
    .object({
      run: z.union([z.string().min(1, 'a setup command cannot be empty'), z.array(z.string().min(1, 'a setup command cannot be empty')).min(1)]),
      /** Seconds for all of setup together. */
      timeout: positive.default(900),
      /** Globs of files whose content decides whether setup runs again (unset: the lockfiles and manifests found). */
      inputs: z.array(z.string().min(1)).optional(),
      /** Hosts reachable during setup only (gates get `sandbox.network`). */
      network: z.array(NetworkEntry).default([]),
    })
    .strict(),
);
export type SetupConfig = z.infer<typeof SetupConfig>;

/** Limits in the sandbox (memory and processes per run where a cgroup allows, else per process; file size and disk growth per command); a command that hits one fails as resource_exhaustion. */
export const SandboxLimits = z
  .object({
    memory_mb: z.number().int().positive().optional(),
    processes: z.number().int().positive().optional(),
    file_mb: z.number().int().positive().optional(),
    disk_mb: z.number().int().positive().optional(),
  })
  .strict();
export type SandboxLimits = z.infer<typeof SandboxLimits>;

export const WorkflowFile = z
  .object({
    task: z
      .object({ title: z.string().min(1).optional(), description: z.string().optional() })
      .strict()
      .optional(),
    preset: z.enum(['conservative', 'aggressive', 'minimal']).optional(),
    gates: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'gate names use letters, digits, - and _'), GateConfig).default({}),
    agent: AgentConfig.default({ kind: 'anthropic', model: 'claude-sonnet-5-5', max_turns: 40, max_tokens: 8192, prompt_via: 'arg' }),
    /** Retries for test failures and the default for classes `limits` does not name (unset: the preset's, else 3). */
    max_retries: z.number().int().min(0).optional(),
    timeout_seconds: positive.default(1800),
    backoff: z
      .object({ base_s: z.number().min(0).optional(), max_s: z.number().min(0).optional(), jitter: z.number().min(0).max(1).optional() })
      .strict()
      .optional(),
    retry: z.array(RetryEntry).optional(),
    limits: Limits.optional(),
    allow_retry_on: z.array(ErrorClass).optional(),
    budget: Budget.optional(),
    rules: z.array(ClassRule).optional(),
    /** Re-run a failing test gate once on the unchanged tree before spending an agent attempt. */
    flaky_check: z.boolean().default(true),
    /**
     * What to do when the same failure (same fingerprint) comes back `after` attempts in a row. The default,
     * `new_session`, changes strategy (a new session with a stronger hint) within the class's retries; `stop` and
     * `escalate` end the step early; `retry` ignores repeats.
     */
    on_repeat: z
      .object({ after: z.number().int().min(2).default(3), action: z.enum(['new_session', 'stop', 'escalate', 'retry']).default('new_session') })
      .strict()
      .default({ after: 3, action: 'new_session' }),
    /** A rate limit asking to wait longer than this parks the run as `waiting` instead of sleeping in-process. */
    park_after_s: z.number().min(0).default(300),
    /** The OS sandbox around the agent's shell, gates and validators: hosts they may reach, variables they may see. */
    sandbox: z
      .object({
        network: z.array(NetworkEntry).default([]),
        env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name, e.g. NODE_OPTIONS')).default([]),
        limits: SandboxLimits.optional(),
      })
      .strict()
      .optional(),
    /** Makes a fresh worktree ready to test (see SetupConfig). */
    setup: SetupConfig.optional(),
    /** Globs of files git does not carry (`.env`, local config) copied from the user's checkout into the worktree when it is made; never committed. */
    copy: z.array(z.string().min(1)).optional(),
    /** Test first for every step that does not say otherwise (a step's own `tdd` wins): see StepSpec's `tdd`. */
    tdd: TddSetting.optional(),
    /** Each channel's target (ntfy topic URL, webhook URL, …) for this workflow's runs; each replaces the one in Settings (null: none). */
    notify: WorkflowNotify.optional(),
    /**
     * The forge's repository for pull requests (`ratchet pr`), when the push remote's URL does not say it; `issue`: the
     * issue the task came from (`ratchet run --issue`, New task's issue URL), set by Ratchet on the run's copy.
     */
    forge: z
      .object({
        repo: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/, 'owner/name, e.g. acme/widget')
          .optional(),
        issue: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    /**
     * The plan. Left out, each task gives its own (New task, `ratchet run --task`, `--draft`): a file written by
     * `ratchet init` describes the project (setup, gates, copy), not one task. An empty list is refused as a mistake.
     */
    steps: z.array(StepConfig).min(1, 'a workflow with `steps` needs at least one; leave `steps` out to let each task give its own').default([]),
  })
  .strict();
export type Workflow = z.infer<typeof WorkflowFile>;
