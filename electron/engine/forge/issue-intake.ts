// A task from the tracker (`ratchet run --issue`, New task's issue URL): which issue a reference names, the task's title
// and description written from the issue and its comments (pure), and reading it through the forge port.
import { RatchetError } from '../errors';
import { pushRemote } from '../git/run-merge';
import type { Workflow } from '../workflow/schema';
import type { Forge, ForgeRepo, Issue } from './forge';
import { chooseRepo, githubApiUrl, githubToken } from './forge-config';
import { githubForge } from './github';

export interface IssueRef {
  number: number;
  /** The repository the URL names; null for a bare number (the repository's own project). */
  repo: ForgeRepo | null;
}

const MAX_DESCRIPTION = 20_000;
const MAX_COMMENT = 4_000;

/** `12`, `#12`, or an issue's page (`https://github.com/acme/widget/issues/12`, an Enterprise host's, or its API URL). */
export function parseIssueRef(ref: string): IssueRef {
  const text = ref.trim();
  const bare = /^#?(\d{1,9})$/.exec(text);
  if (bare && Number(bare[1]) >= 1) return { number: Number(bare[1]), repo: null };
  let url: URL | null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  const m = url && /^(?:\/api\/v3)?(?:\/repos)?\/([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100})\/issues\/(\d{1,9})\/?$/.exec(url.pathname);
  if (!url || !/^https?:$/.test(url.protocol) || !m || Number(m[3]) < 1)
    throw new RatchetError('bad_arguments', `"${text}" is not an issue: give its number (12) or its page's URL (https://github.com/owner/name/issues/12).`);
  return { number: Number(m[3]), repo: { owner: m[1] as string, name: (m[2] as string).replace(/\.git$/, '') } };
}

function bounded(s: string, max: number): string {
  const t = s.trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The task an issue asks for: its title, and a description of its body, its comments in order, and where it came from. */
export function issueTask(issue: Issue): { title: string; description: string } {
  const parts = [bounded(issue.body, MAX_DESCRIPTION) || '(The issue has no description.)'];
  const comments = issue.comments.map((c) => bounded(c, MAX_COMMENT)).filter(Boolean);
  if (comments.length) parts.push('## Comments on the issue', ...comments.map((c, i) => `### Comment ${i + 1}\n\n${c}`));
  parts.push(`From issue #${issue.number}: ${issue.url}`);
  return { title: issue.title.replace(/\s+/g, ' ').trim() || `Issue #${issue.number}`, description: bounded(parts.join('\n\n'), MAX_DESCRIPTION * 2) };
}

export interface ReadIssueOptions {
  env: NodeJS.ProcessEnv;
  /** The local repository the run is for: its push remote names the GitHub project of a bare number. */
  repoPath: string;
  ref: string;
  /** --github-repo, or the workflow's forge.repo. */
  repoFlag?: string | undefined;
  workflowRepo?: string | undefined;
}

export interface ReadIssue {
  issue: Issue;
  repo: ForgeRepo;
  forge: Forge;
  title: string;
  description: string;
}

/** Reads the issue a reference names (the URL's repository, else the run's as chooseRepo says), with its comments. */
export async function readIssue(o: ReadIssueOptions): Promise<ReadIssue> {
  const ref = parseIssueRef(o.ref);
  const token = githubToken(o.env);
  if (!token)
    throw new RatchetError(
      'forge_no_token',
      'No GitHub token to read the issue: set GITHUB_TOKEN (or GH_TOKEN), or add a token in Settings › GitHub, then try again.',
    );
  const apiUrl = githubApiUrl(o.env);
  let repo = ref.repo;
  if (!repo) {
    const remote = await pushRemote(o.repoPath, null).catch(() => null);
    repo = chooseRepo({ flag: o.repoFlag, workflow: o.workflowRepo, remoteUrl: remote?.url ?? null, apiUrl }).repo;
  }
  const forge = githubForge({ token, apiUrl, repo });
  const issue = await forge.issue(ref.number);
  return { issue, repo, forge, ...issueTask(issue) };
}

/** The run's copy of the workflow, remembering the issue its task came from (and the issue's repository when it names none). */
export function workflowWithIssue(workflow: Workflow, issue: IssueRef): Workflow {
  const forge = workflow.forge;
  const repo = forge?.repo ?? (issue.repo ? `${issue.repo.owner}/${issue.repo.name}` : undefined);
  return { ...workflow, forge: { ...forge, ...(repo ? { repo } : {}), issue: issue.number } };
}
