// The workflow New task writes when there is no file: its gates, setup and files to copy, the agent and retry preset
// chosen there (else Settings'), and its steps, as the engine's schema reads them; refused with the field that is wrong.
// Its budgets are merged where every run's are (workflow/run-budget.ts, through prepareRun).
import type { AgentChoice, MethodInput } from '../../../shared/contract';
import type { StepSpec } from '../../../shared/domain';
import type { AppSetup } from '../../../shared/project';
import { RatchetError } from '../errors';
import type { UserSettings } from '../settings/settings-store';
import { WorkflowFile, type Workflow } from '../workflow/schema';

/** A baseline checks every gate a step uses: a workflow without steps (each task gives them) is checked as one step using them all. */
export const CHECK_STEP = { title: 'Check project', prompt: '' };

/** Claude Code as New task's alternative agent (a command agent): its own login, no Anthropic key needed by Ratchet. */
export const CLAUDE_CODE_AGENT = {
  kind: 'command' as const,
  command: [
    'claude',
    '-p',
    '{prompt}',
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    '{model}',
    '--max-turns',
    '{max_turns}',
    '--permission-mode',
    'acceptEdits',
  ],
};

const notValid = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  new RatchetError('workflow_invalid', `The task's settings are not valid: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);

/** The workflow New task describes (gates, setup, files to copy) as the engine's schema reads it; refused with the field that is wrong. */
export function appEnvironment(input: Pick<MethodInput<'project.baseline'>, 'gates' | 'setup' | 'copy'>): Pick<Workflow, 'gates' | 'setup' | 'copy'> {
  const parsed = WorkflowFile.safeParse({
    gates: input.gates ?? {},
    ...(input.setup ? { setup: input.setup } : {}),
    ...(input.copy?.length ? { copy: input.copy } : {}),
    steps: [CHECK_STEP],
  });
  if (!parsed.success) throw notValid(parsed.error.issues);
  return { gates: parsed.data.gates, setup: parsed.data.setup, copy: parsed.data.copy };
}

/** The whole workflow of a task written in the app: every gate a step names must be one it defines. */
export function appWorkflow(
  input: { steps: StepSpec[]; gates?: Record<string, string>; setup?: AppSetup; copy?: string[]; preset?: Workflow['preset']; agent?: AgentChoice },
  settings: Pick<UserSettings, 'defaultModel' | 'preset'>,
): Workflow {
  const parsed = WorkflowFile.safeParse({
    ...appEnvironment(input),
    agent: input.agent === 'claude-code' ? { ...CLAUDE_CODE_AGENT, model: settings.defaultModel } : { model: settings.defaultModel },
    preset: input.preset ?? settings.preset,
    steps: input.steps,
  });
  if (!parsed.success) throw notValid(parsed.error.issues);
  for (const s of parsed.data.steps) {
    for (const g of s.gates ?? [])
      if (!(g in parsed.data.gates)) throw new RatchetError('unknown_gate', `Step "${s.title}" names gate \`${g}\`, which is not defined.`);
  }
  return parsed.data;
}
