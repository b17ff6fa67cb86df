// The error class as a zod schema, for the documents that carry one (domain.ts, worktree-env.ts); the list and its labels
// are in error-classes.ts, which has no zod so that the CLI's light paths can word an error class without loading it.
import { z } from 'zod';
import { ERROR_CLASSES } from './error-classes';

export const ErrorClass = z.enum(ERROR_CLASSES);
export type ErrorClass = z.infer<typeof ErrorClass>;
