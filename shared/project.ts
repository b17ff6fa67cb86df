// What the app shows about a repository's project before a run: what detection found and proposes, and the environment a task written in the app asks for.
import { z } from 'zod';

const Why = { why: z.string() };

/** detectProject's answer: what the repository's files show, and the setup, gates and files to copy a workflow would need, each with why. */
export const DetectedProjectDoc = z.object({
  found: z.array(
    z.object({ ecosystem: z.enum(['node', 'python', 'rust', 'go', 'maven', 'gradle', 'cmake', 'make']), label: z.string(), evidence: z.array(z.string()) }),
  ),
  setup: z.array(z.object({ run: z.string(), ...Why })),
  network: z.array(z.object({ entry: z.string(), ...Why })),
  gates: z.array(z.object({ name: z.string(), run: z.string(), ...Why })),
  copy: z.array(z.object({ glob: z.string(), ...Why })),
  notes: z.array(z.string()),
});
export type DetectedProjectDoc = z.infer<typeof DetectedProjectDoc>;

/** The worktree's setup as the app edits it: commands run in order, and what they may reach (`registry:npm`, a host). */
export const AppSetup = z.object({
  run: z.array(z.string().trim().min(1)).min(1),
  network: z.array(z.string().trim().min(1)).default([]),
});
export type AppSetup = z.infer<typeof AppSetup>;

/** The project's environment written (or reviewed) in the app: gates (name → command), setup and files to copy. */
export const AppEnvironment = z.object({
  gates: z.record(z.string(), z.string().min(1)).optional(),
  setup: AppSetup.optional(),
  copy: z.array(z.string().trim().min(1)).optional(),
});
