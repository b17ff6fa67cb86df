// The CLI's usage text and its answer to --help: plain strings with no imports, so `ratchet --help` loads nothing else.

/** Each command's usage line(s), as `ratchet <command> --help` prints them. */
export const COMMAND_USAGE: Record<string, string> = {
  run: `ratchet run <repo> [--workflow <file>] [--task <title>] [--description <text>|@<file.md>] [--draft] [--yes] [--trust] [--json] [--no-sandbox] [--no-gates] [--queue [--priority N]] [--run-anyway] [--issue <number|URL>] [--pr] [--github-repo <owner/name>]
      run a task's plan in its own worktree; --trust trusts the repository's own workflow file as it is now; --description gives the task its description (a
      "## Retry Configuration" block in it sets max_retries, timeout_seconds, allow_retry_on for this task);
      --draft lets the agent draft the plan, which waits for your approval (resume --approve);
      a step no gate checks is refused (exit 2) unless --no-gates: then the run may succeed "unchecked";
      --run-anyway starts the agent though the pre-run check found a gate failing for the environment on the base commit;
      --queue waits as "queued" until fewer runs than Settings' concurrency (default 2) run anywhere, higher --priority first;
      --team <postgres-url> runs it on team workers (its remote: origin); --detach prints the run id and returns at once;
      --issue takes the task's title and description from a GitHub issue and its comments (its pull request says "Fixes #N" and
      the issue gets a comment linking it); --pr opens the run's pull request when it succeeds (as \`ratchet pr\`; its URL on
      stdout, on stderr with --json)`,
  status: "ratchet status <run-id> [--json] [--team <url>]   the run's status document (its steps, attempts, policy and cost)",
  list: "ratchet list [--json] [--team <url>]     runs, newest first (--team: the team's runs, workers, limits, spend today)",
  worker: `ratchet worker --team <postgres-url> [--concurrency N] [--global-limit N] [--repo-limit N] [--daily-budget <usd>|none]
      [--allow-env NAME,…] [--allow-network HOST,…] [--allow-command-agent] [--no-sandbox]
      run the team's queued runs on this machine until Ctrl-C (its runs then go to another worker); --concurrency sets the
      team's runs-per-worker limit, --global-limit and --repo-limit the team's limits in all and per repository,
      --daily-budget what the whole team may spend per (UTC) day; a submitted workflow gets only the sandbox.env names
      (--allow-env; never ANTHROPIC_API_KEY), network entries (--allow-network, as the workflow writes them) and command
      agent (--allow-command-agent) allowed here, else its run fails saying which (each flag repeats or takes a comma list)`,
  stop: 'ratchet stop <run-id> --team <url>       stop a team run where it is (the attempt kept); resume or retry it later',
  init: `ratchet init <repo> [--force] [--json]
      write ratchet.yml from what the repository's files show (npm/pnpm/yarn/bun, Python, Cargo, Go, Maven, Gradle, Makefile):
      setup, gates and files to copy, each with why; refused when the repository has a workflow file, unless --force`,
  check: `ratchet check <workflow-file> [--description <text>|@<file.md>]
      validate a workflow without running it (exit 0 valid, 1 invalid) and show the retry policy in force`,
  retry: `ratchet retry <run-id> [--yes] [--json] [--trust] [--no-sandbox]   continue a failed run from the next incomplete step
      (with the workflow stored when it started; refused, exit 2, if that version is no longer trusted: --trust trusts it again)`,
  restart: `ratchet restart <run-id> [--yes] [--json] [--trust] [--no-sandbox]   start a run's task again as a new run (its plan and
      workflow, from the repository's current HEAD) and run it: what to do when no step was committed, so retry has nothing to continue`,
  resume: `ratchet resume [<run-id> | <worktree>] [--yes] [--json] [--auto step|phase|run] [--skip-step] [--budget <usd>] [--approve] [--trust] [--run-anyway] [--no-sandbox]
      resume an interrupted, paused or waiting run from its last checkpoint; --budget raises the run's
      task budget (a run paused for its budget continues); --approve starts an agent-drafted plan;
      refused (exit 2) if the repository workflow version the run started with is no longer trusted: --trust trusts it again;
      --run-anyway starts the agent though the pre-run check finds the environment not ready`,
  plan: 'ratchet plan <run-id> [--edit <file>] [--json]   show the plan, or revise it (a YAML list of steps)',
  recover: "ratchet recover <repo>                   rebuild runs from the repository's branches after losing the database",
  trust: `ratchet trust <repo> [--list | --revoke] [--workflow <file>] [--json]
      trust the repository's workflow file (or the --workflow file named) as it is now (shows what it runs); --list shows what is trusted
      (workflow file, content hash, when); --revoke forgets it, so the workflow asks again (exit 0; 2 bad input)`,
  serve: 'ratchet serve [--port N] [--demo] [--no-sandbox]   the app in a browser (headless host on 127.0.0.1, with a token)',
  stats: `ratchet stats [--days N] [--json]        the dashboard's numbers for the last N days (default 7, today included):
      success rate, retries, reasons, cost per day; --json prints the same object the app's dashboard gets;
      --team <url>: the team's runs (runs, retries and what they bought, reasons, each worker's share, today's spend)`,
  merge: `ratchet merge <run-id> [--ff-only | --no-ff] [--dry-run] [--json]
      land a succeeded run's branch on the branch it started from (a fast-forward when it has not moved, else a merge
      commit); --dry-run shows the commits and diffstat; refused (exit 1) when it would conflict or your checkout of the
      base has uncommitted changes — nothing is touched then`,
  review: `ratchet review <run-id> [--comment <file>:<line> "<text>"]… [--from <review.md>] [--list] [--trust] [--json] [--no-sandbox]
      comment on lines of a succeeded run's change (<file>:<first>-<last> for a range; --from: a Markdown file, each comment under a
      heading "## <file>:<line>") and send every pending comment to the agent in one round: a step "Address review" whose gates must
      pass; then each comment's answer (done, with its commit, or declined, with why); --list shows the comments without sending`,
  pr: `ratchet pr <run-id> [--base <branch>] [--draft] [--github-repo <owner/name>] [--watch [--fix ci,review|none]
      [--merge squash|merge|rebase] [--max-wait <90s|10m|2h>] [--trust]] [--json]
      push a succeeded run's branch and open its pull request on GitHub, or update the one already open for that branch,
      with a body written from the run (task, steps and commits, retries and why, gates passed locally, cost); prints its
      URL (--json: the run's status document with its pr). Token: GITHUB_TOKEN or GH_TOKEN (none: exit 2); API:
      RATCHET_GITHUB_API_URL, else the address saved in Settings › GitHub; repository: --github-repo, else the workflow's forge.repo, else the remote's URL;
      --watch follows the head commit's checks (the base's required ones, else all) and reviews until they decide:
      exit 0 green or merged, 1 failed for good (a check failed, or closed), 2 needs you (changes requested, no CI);
      --fix (default ci with --watch): a failing check is re-run when its runner was lost, recorded when it passes on a
      re-run (flaky), needs you when it fails on the base too, else fixed by a new step "Fix CI: <check>" (local gates
      first, then pushed) under limits.ci_failure; review: a submitted review's line comments in one round, each thread
      answered; --merge merges once every required check passed on the head, no review requests changes and it is
      mergeable; --max-wait: needs you when nothing decided it by then (--fix, --merge, --max-wait imply --watch)`,
  estimate: `ratchet estimate <repo> [--workflow <file>] [--task <title>] [--json]
      what a task would cost and how long it would take, before it starts: median and 90th percentile, from this repository's
      and workflow's past runs (the whole store's when they are few, the plan alone when there are none; --json prints
      { usd: { p50, p90 }, minutes: { p50, p90 }, basis: { runs }, confidence: none|low|ok }); no history is not an error`,
  mcp: `ratchet mcp [--team <url>] [--no-sandbox]   an MCP server on stdio for another agent (Claude Code, any MCP client): tools estimate, run,
      status, list, logs, retry, resume, stop, review; runs it starts execute in it (see docs/mcp.md)`,
  schedule: `ratchet schedule add <repo> --cron "<expr>" [--workflow <file>] [--task <title>] [--budget <usd>] [--tz <zone>] [--missed run-once|skip] [--team <url>] [--json]
      ratchet schedule list|remove <id>|pause <id>|resume <id> [--team <url>] [--json]
      run a task on a cron schedule while the app, \`ratchet serve\`, \`ratchet mcp\` or \`ratchet worker\` runs (each tick once); a tick
      missed while nothing ran fires once at the next start (or --missed skip); --team <url> (or RATCHET_TEAM_URL): a team
      schedule, each tick one run on the team's queue, fired once across the workers; bad cron, time zone, repository or trust: exit 2 (docs/schedules.md)`,
  doctor: `ratchet doctor [--json]                  check the store: full integrity check, schema version, sizes, and what to do
      (exit 0 healthy, 1 damaged); a normal start skips this check unless a process stopped without closing the store`,
};

export const USAGE = `Usage:
${Object.values(COMMAND_USAGE)
  .map((u) => `  ${u}`)
  .join('\n')}

Every command answers --help. run, retry, restart, resume, review and serve take --no-sandbox: run the agent's commands without the OS
sandbox (see the README's "Sandbox"). Environment: RATCHET_HOME (all state), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, RATCHET_TEAM_URL (stands for --team; --local ignores it),
RATCHET_TEAM_URL_FILE (a file holding it; stands for --team-file <file>): prefer these to --team <url>, whose password ps shows.
status, list, stats, retry, resume and stop take --team <url> or --team-file <file> for the team's runs (list: its runs, workers, limits).`;

/** `ratchet <command> --help`: the command's usage, on stdout. */
export function commandHelp(command: string): string {
  return `Usage:\n  ${COMMAND_USAGE[command]}\n\nEnvironment: RATCHET_HOME (all state), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, RATCHET_TEAM_URL (stands for --team; --local ignores it),
RATCHET_TEAM_URL_FILE (a file holding it; stands for --team-file <file>): prefer these to --team <url>, whose password ps shows.
status, list, stats, retry, resume and stop take --team <url> or --team-file <file> for the team's runs (list: its runs, workers, limits).`;
}

/** What `ratchet <argv>` answers without opening anything (help), or null for a real command. */
export function helpAnswer(argv: readonly string[]): { stream: 'stdout' | 'stderr'; text: string; code: number } | null {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    return { stream: command ? 'stdout' : 'stderr', text: `${topic && COMMAND_USAGE[topic] ? commandHelp(topic) : USAGE}\n`, code: command ? 0 : 2 };
  }
  // Every command answers --help (exit 0, usage on stdout), before it opens anything.
  if (COMMAND_USAGE[command] && rest.some((a) => a === '--help' || a === '-h')) return { stream: 'stdout', text: `${commandHelp(command)}\n`, code: 0 };
  return null;
}
