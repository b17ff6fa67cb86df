// The contract's notice codes: what a notice is about, for code that decides by it.
import { z } from 'zod';

/**
 * What a notice is about, stable for code that decides by it (grouping, replacing, clearing); its title and body are
 * the words the user reads and may change. Runs' outcomes and the scheduler's errors come from the service, budget
 * alerts and menu commands' answers from the renderer itself.
 */
export const NoticeCode = z.enum([
  'run.succeeded',
  'run.failed',
  'run.needs_you',
  'run.error',
  'queue.error',
  'budget.task_alert',
  'budget.daily_alert',
  'command.no_run',
  'command.failed',
  'repo.open_failed',
]);
export type NoticeCode = z.infer<typeof NoticeCode>;
