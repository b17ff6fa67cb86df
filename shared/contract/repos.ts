// The contract's documents about repositories: one inspected, and a folder listing for the browser host's Open….
import { z } from 'zod';

export const RepoInfo = z.object({ root: z.string(), name: z.string(), headCommit: z.string(), branch: z.string().nullable() });

/** One folder's subfolders, for the folder browser the headless host serves in place of a native Open… dialog. */
export const FolderListing = z.object({
  dir: z.string(),
  parent: z.string().nullable(),
  isGitRepo: z.boolean(),
  entries: z.array(z.object({ name: z.string(), path: z.string(), isGitRepo: z.boolean() })),
  truncated: z.number().int(),
});
export type FolderListing = z.infer<typeof FolderListing>;
