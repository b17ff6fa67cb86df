// `ratchet estimate <repo>`: what a task would cost and how long it would take, before it starts. No history is not an
// error: the estimate then rests on the plan alone and says so (`confidence: none`).
import type { Engine } from '../engine';
import { estimateLine } from '../../shared/estimate-text';
import { parse, UsageError, type CliIo } from './cli-kit';

export async function cmdEstimate(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    workflow: { type: 'string', short: 'w' },
    task: { type: 'string', short: 't' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet estimate` takes exactly one repository path.');
  // The contract is the run's four fields: the steps' shares are New task's (a drafted plan lists them).
  const { steps: _steps, ...est } = await engine.estimate({
    repo: positionals[0] as string,
    workflowFile: values.workflow as string | undefined,
    title: values.task as string | undefined,
  });
  io.stdout.write(values.json ? `${JSON.stringify(est, null, 2)}\n` : `${estimateLine(est)}\n`);
  return 0;
}
