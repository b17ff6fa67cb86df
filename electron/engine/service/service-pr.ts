// The service's GitHub side (issue 31 in the app): Settings › GitHub (the token kept like the API key and checked with
// one call when saved; the API's root), the run screen's PR panel (open the pull request, then the same loop as
// `ratchet pr --watch --fix … --merge …` with the toggles kept with the run, read again before each round; a host
// restarted while it watched takes the watch up again) and New task's issue intake. GITHUB_TOKEN/GH_TOKEN and RATCHET_GITHUB_API_URL from the
// environment win over what Settings keeps. The token goes to the forge client only: never into `env` the runs get.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { GithubSettingsDoc, Handlers, IssueTaskDoc, PrPanelDoc } from '../../../shared/contract';
import type { PrOptions } from '../../../shared/pull-request';
import type { Engine } from '../engine';
import { RatchetError, runNotFound } from '../errors';
import { GITHUB_TOKEN_NAMES, githubApiUrl, githubToken, PUBLIC_GITHUB_API, withSavedForge } from '../forge/forge-config';
import { githubLogin } from '../forge/github-user';
import { readIssue } from '../forge/issue-intake';
import { forgeForRun, prDocOf } from '../forge/open-pull';
import { watchVerdict, type WatchLook, type WatchVerdict } from '../forge/pr-watch';
import type { FixKind } from '../forge/pr-loop';
import type { OpenedPull } from '../forge/run-pull';
import { processAlive } from '../process/process-alive';
import { saveSettings } from '../settings/settings-store';
import type { SecretStore } from '../settings/secret-store';
import { RunPrStore } from '../store/run-pr';
import { RunPrOptionsStore, type PrWatchOwner } from '../store/run-pr-options';

/** The services open in this process (their watch tokens): a watch marked by one of them is not taken over by another. */
const openHere = new Set<string>();

export type PrHandlers = Pick<Handlers, 'github.settings' | 'github.set' | 'pr.get' | 'pr.open' | 'pr.setOptions' | 'issues.read'>;

export interface PrServiceOptions {
  /** The environment the host was started with (read, never written). */
  env: NodeJS.ProcessEnv;
  /** Where Settings › GitHub keeps the token: the desktop shell's keychain store, the headless host's memory. */
  token: SecretStore;
  now: () => Date;
  /** The shortest wait between looks of a watch (default: pr-watch's own); RATCHET_PR_POLL_MS sets it, as for `ratchet pr --watch`. */
  pollMs?: number | undefined;
}

const NO_TOKEN = 'No GitHub token: add one in Settings › GitHub (a token that can push to the repository and open pull requests), then try again.';

/** The forge's errors in the app's words: where to add a token, and no CLI flag to pass. */
function appWords(e: unknown): never {
  if (e instanceof RatchetError && e.code === 'forge_no_token') throw new RatchetError('forge_no_token', NO_TOKEN, { cause: e });
  if (e instanceof RatchetError && e.message.includes('--github-repo'))
    throw new RatchetError(e.code, e.message.replace(/Pass --github-repo owner\/name or set (.*)\.$/, 'Set $1 (the workflow file).'), { cause: e });
  throw e;
}

function liveOf(look: WatchLook, verdict: WatchVerdict | { kind: 'no_checks' }): NonNullable<PrPanelDoc['live']> {
  const standing = new Map<string, WatchLook['reviews'][number]>();
  for (const r of look.reviews) if (r.state !== 'PENDING') standing.set(r.author, r);
  return {
    reviews: [...standing.values()].map((r) => ({ author: r.author, state: r.state })),
    mergeable: look.pr.mergeable,
    mergeableState: look.pr.mergeableState,
    verdict: verdict.kind,
    waitingFor: verdict.kind === 'waiting' ? verdict.waitingFor : [],
  };
}

export function createPrService(engine: Engine, o: PrServiceOptions): { handlers: PrHandlers; close(): Promise<void> } {
  const store = engine.store;
  const prs = new RunPrStore(store);
  const options = new RunPrOptionsStore(store);
  const watches = new Map<string, AbortController>();
  const live = new Map<string, NonNullable<PrPanelDoc['live']>>();
  const errors = new Map<string, string>();
  const progress = new Map<string, string>();
  const running = new Set<Promise<void>>();
  const self: Omit<PrWatchOwner, 'since'> = { pid: process.pid, host: hostname(), token: randomUUID() };
  openHere.add(self.token);
  /** Who the token in use belongs to, as GitHub said when it was last checked here. */
  let login: { token: string; apiUrl: string; login: string } | null = null;

  const envTokenName = () => GITHUB_TOKEN_NAMES.find((n) => o.env[n]?.trim()) ?? null;
  const savedApiUrl = () => engine.settings().githubApiUrl;

  /** The environment the forge client gets: the host's, with Settings' token and API root where the environment sets none. */
  const forgeEnv = (): NodeJS.ProcessEnv => withSavedForge(o.env, { token: o.token.get(), apiUrl: savedApiUrl() });

  function settingsDoc(): GithubSettingsDoc {
    const envName = envTokenName();
    const env = forgeEnv();
    let apiUrl: string;
    try {
      apiUrl = githubApiUrl(env);
    } catch {
      apiUrl = env.RATCHET_GITHUB_API_URL ?? PUBLIC_GITHUB_API;
    }
    const token = githubToken(env);
    return {
      tokenSource: envName ? 'environment' : token ? o.token.source : 'none',
      tokenEnv: envName,
      tokenWarning: envName ? null : token ? o.token.warning : null,
      login: login && token === login.token && apiUrl === login.apiUrl ? login.login : null,
      apiUrl,
      apiUrlSource: o.env.RATCHET_GITHUB_API_URL?.trim() ? 'environment' : savedApiUrl() ? 'settings' : 'default',
    };
  }

  function panel(runId: string): PrPanelDoc {
    if (!store.getRun(runId)) throw runNotFound(runId);
    const saved = prs.get(runId);
    let pr: PrPanelDoc['pr'] = null;
    if (saved) {
      const { repo: _repo, ...doc } = saved;
      pr = doc;
    }
    return {
      pr,
      options: options.get(runId),
      watching: watches.has(runId),
      live: live.get(runId) ?? null,
      error: errors.get(runId) ?? null,
      progress: progress.get(runId) ?? null,
    };
  }

  /** The run's toggles as the loop reads them before each round. */
  const current = (runId: string): { fix: ReadonlySet<FixKind>; merge: PrOptions['merge'] } => {
    const saved = options.get(runId);
    return { fix: new Set(saved.fix), merge: saved.merge };
  };

  /**
   * Follows the pull request until it is decided (one watch per run), through the engine's loop with the run's toggles:
   * failing checks and reviews sent back to the run as rounds, merged when safe. What each look sees and what the loop
   * says are kept for the panel; the watch is marked in the store until it ends, so a restarted host takes it up again.
   */
  function watch(runId: string, opened: () => Promise<OpenedPull>): void {
    watches.get(runId)?.abort();
    const stop = new AbortController();
    watches.set(runId, stop);
    errors.delete(runId);
    options.setWatch(runId, { ...self, since: o.now().toISOString() }, o.now().toISOString());
    const done = (async () => {
      const pull = await opened();
      const end = await engine.pulls.loop(runId, pull, {
        ...current(runId),
        current: () => current(runId),
        ...(o.pollMs ? { minWaitMs: o.pollMs, maxWaitMs: o.pollMs * 8 } : {}),
        signal: stop.signal,
        onLook: (look) => live.set(runId, liveOf(look, watchVerdict(look))),
        onProgress: (line) => progress.set(runId, line),
      });
      live.set(runId, liveOf(end.look, watchVerdict(end.look)));
      progress.set(runId, end.say);
    })()
      .then(
        () => options.setWatch(runId, null, o.now().toISOString()),
        (e: unknown) => {
          // Stopped with the host: the mark stays, for the next host to take the watch up.
          if (stop.signal.aborted) return;
          errors.set(runId, e instanceof RatchetError && e.code === 'forge_no_token' ? NO_TOKEN : e instanceof Error ? e.message : String(e));
          options.setWatch(runId, null, o.now().toISOString());
        },
      )
      .finally(() => {
        if (watches.get(runId) === stop) watches.delete(runId);
        running.delete(done);
      });
    running.add(done);
  }

  /** The pull request saved for the run, looked up again on GitHub (the panel asking to follow it, a watch taken up). */
  const reopen = (runId: string, number: number) => async (): Promise<OpenedPull> => {
    const forge = await forgeForRun(store, runId, { env: forgeEnv() });
    const pr = await forge.getPull(number);
    return { forge, pr, created: false, doc: prs.get(runId) ?? prDocOf(pr, [], []) };
  };

  // Watches a host of this machine left (its process gone, or a service of this process closed) are taken up again.
  for (const { runId, owner } of options.watched()) {
    if (owner.host !== self.host) continue;
    if (processAlive(owner.pid) && (owner.pid !== process.pid || openHere.has(owner.token))) continue;
    const saved = prs.get(runId);
    if (!store.getRun(runId) || !saved || saved.state !== 'open' || saved.merged) options.setWatch(runId, null, o.now().toISOString());
    else watch(runId, reopen(runId, saved.number));
  }

  const handlers: PrHandlers = {
    'github.settings': async () => settingsDoc(),

    'github.set': async ({ token, apiUrl }) => {
      let api = githubApiUrl(forgeEnv());
      if (apiUrl !== undefined && !o.env.RATCHET_GITHUB_API_URL?.trim()) {
        api = apiUrl === null ? PUBLIC_GITHUB_API : githubApiUrl({ RATCHET_GITHUB_API_URL: apiUrl });
      }
      if (token === null) {
        await o.token.set(null);
        login = null;
      }
      // Checked before anything is kept: the token given (or the one in use, against a new API root) with one call.
      const check = token ?? (apiUrl !== undefined ? githubToken(forgeEnv()) : null);
      if (check) {
        const who = await githubLogin(check, api);
        if (token) await o.token.set(token);
        login = { token: check, apiUrl: api, login: who };
      }
      if (apiUrl !== undefined && !o.env.RATCHET_GITHUB_API_URL?.trim()) {
        const next = { ...engine.settings(), githubApiUrl: api === PUBLIC_GITHUB_API ? null : api };
        saveSettings(engine.home, next);
        engine.applySettings(next);
      }
      return settingsDoc();
    },

    'pr.get': async ({ runId, watch: follow }) => {
      const doc = panel(runId);
      if (follow && doc.pr && doc.pr.state === 'open' && !doc.pr.merged && !watches.has(runId)) {
        watch(runId, reopen(runId, doc.pr.number));
        return panel(runId);
      }
      return doc;
    },

    'pr.open': async ({ runId, draft, options: chosen }) => {
      if (chosen) options.put(runId, chosen, o.now().toISOString());
      const opened = await engine.pulls.open(runId, { env: forgeEnv(), draft }).catch(appWords);
      live.delete(runId);
      progress.delete(runId);
      if (opened.issueCommentError) errors.set(runId, `The pull request is open, but the issue's comment linking it failed: ${opened.issueCommentError}`);
      watch(runId, async () => opened);
      return panel(runId);
    },

    'pr.setOptions': async ({ runId, fix, merge }) => {
      if (!store.getRun(runId)) throw runNotFound(runId);
      const next: PrOptions = { fix, merge };
      options.put(runId, next, o.now().toISOString());
      return panel(runId);
    },

    'issues.read': async ({ repo, ref }): Promise<IssueTaskDoc> => {
      const r = await readIssue({ env: forgeEnv(), repoPath: repo, ref }).catch(appWords);
      return { number: r.issue.number, url: r.issue.url, repo: `${r.repo.owner}/${r.repo.name}`, title: r.title, description: r.description };
    },
  };

  return {
    handlers,
    /** Stops this host's watches (each stays marked in the store, for the next host to take up) and waits for them. */
    async close() {
      openHere.delete(self.token);
      for (const w of watches.values()) w.abort();
      watches.clear();
      await Promise.allSettled([...running]);
    },
  };
}
