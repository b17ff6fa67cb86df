// The service's team mode (issue 22): the team database's URL kept like the API key (the desktop shell's keychain store,
// the headless host's memory), one team client opened on it and reused, and the contract's team.* methods over it.
import type { Handlers, TeamConnectionDoc, TeamEventDoc, TeamSettingsDoc } from '../../../shared/contract';
import { RatchetError } from '../errors';
import type { PreparedRun } from '../lifecycle/run-options';
import { checkTeamUrl, redactTeamUrl } from '../store/team-db';
import { openTeam, type TeamClient } from '../team/team-client';

/** Where the team database's URL is kept; `set` may be asynchronous (the desktop shell encrypts with safeStorage). */
export interface TeamUrlStore {
  source: 'safe_storage' | 'environment' | 'session' | 'none';
  warning: string | null;
  get(): string | null;
  set(url: string | null): void | Promise<void>;
}

/**
 * The headless host's store: RATCHET_TEAM_URL from its environment, or a URL saved from the app, kept in this process's
 * memory only until the host stops; never written to disk.
 */
export function memoryTeamUrl(envUrl: string | null | undefined): TeamUrlStore {
  const fromEnv = envUrl?.trim() || null;
  let session: string | null = null;
  return {
    get source() {
      return session ? 'session' : fromEnv ? 'environment' : 'none';
    },
    get warning() {
      return session
        ? 'This URL is kept in memory only until `ratchet serve` stops. To keep it, set RATCHET_TEAM_URL in the environment of `ratchet serve`.'
        : null;
    },
    get: () => session ?? fromEnv,
    set: (url) => {
      session = url?.trim() || null;
    },
  };
}

/** Hides the URL's password wherever it may appear in a driver's message. */
function scrub(message: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    /* not a URL: nothing to hide */
  }
  const raw = password ? message.split(password).join('***') : message;
  return raw.split(url).join(redactTeamUrl(url));
}

/** An error from opening or asking the team database, as a sentence that says what to do. */
export function unreachable(url: string, err: unknown): RatchetError {
  if (err instanceof RatchetError && err.code === 'bad_arguments') return err;
  const why = scrub(err instanceof Error ? err.message : String(err), url).replace(/\.$/, '');
  return new RatchetError(
    'team_unreachable',
    `Could not use the team database at ${redactTeamUrl(url)}: ${why}. Check the URL (host, port, user, password, database name) and that ` +
      'PostgreSQL accepts connections from this machine (listen_addresses, pg_hba.conf, a firewall), then save again.',
    { cause: err },
  );
}

export interface TeamService {
  handlers: Pick<
    Handlers,
    | 'team.settings'
    | 'team.setUrl'
    | 'team.overview'
    | 'team.list'
    | 'team.status'
    | 'team.stop'
    | 'team.resume'
    | 'team.retry'
    | 'team.setPriority'
    | 'team.raiseBudget'
    | 'team.stats'
    | 'team.follow'
    | 'team.unfollow'
  >;
  /** Puts a prepared run (its trust settled on this machine) on the team's queue; answers its id. */
  submit(prepared: PreparedRun, opts: { priority?: number; taskBudgetUsd?: number | null }): Promise<string>;
  close(): Promise<void>;
}

export function createTeamService(
  store: TeamUrlStore,
  open: (url: string) => Promise<TeamClient> = openTeam,
  /** Where a followed team run's engine events go (the service pushes them to the app as team.onEvent). */
  onEvent: (e: TeamEventDoc) => void = () => undefined,
): TeamService {
  // One client for the URL in force, opened when first needed (DBOS's client holds a pool); replaced when the URL changes.
  let current: { url: string; client: Promise<TeamClient> } | null = null;

  function settingsDoc(): TeamSettingsDoc {
    const url = store.get();
    return { url: url ? redactTeamUrl(url) : null, source: url ? store.source : 'none', warning: url ? store.warning : null };
  }

  async function connect(url: string): Promise<TeamClient> {
    try {
      return await open(checkTeamUrl(url));
    } catch (e) {
      throw unreachable(url, e);
    }
  }

  function client(): Promise<TeamClient> {
    const url = store.get();
    if (!url) throw new RatchetError('team_not_set', 'No team database is set: add its URL in Settings › Team.');
    if (current?.url !== url) {
      void drop();
      const opened = connect(url);
      current = { url, client: opened };
      // A failed open is forgotten, so the next call tries again (the database may be back).
      opened.catch(() => {
        if (current?.client === opened) current = null;
      });
    }
    return current.client;
  }

  // The team runs an app screen follows: one reader of the run's event stream each, stopped by unfollow, a new follow or close.
  const followers = new Map<string, { follow: string; stop: AbortController }>();

  /** Reads the run's events from its stream's start and pushes each with the follow token, until the run's workflow ends or it is stopped. */
  async function follow(runId: string, token: string): Promise<void> {
    const c = await client();
    followers.get(runId)?.stop.abort();
    const stop = new AbortController();
    followers.set(runId, { follow: token, stop });
    void (async () => {
      try {
        for await (const { worker, event } of c.events(runId, stop.signal)) {
          // The client checks the signal between batches: events after a stop are dropped here.
          if (stop.signal.aborted) break;
          onEvent({ runId, follow: token, worker, event });
        }
      } catch {
        // The stream failed (the database went away, the client closed): the screen's status poll still says where the run stands.
      } finally {
        if (followers.get(runId)?.stop === stop) followers.delete(runId);
      }
    })();
  }

  function unfollowAll(): void {
    for (const f of followers.values()) f.stop.abort();
    followers.clear();
  }

  async function drop(): Promise<void> {
    unfollowAll();
    const old = current;
    current = null;
    if (old) await (await old.client.catch(() => null))?.close();
  }

  /** Runs `fn` with the client; a connection error comes back as what to do. */
  async function withClient<T>(fn: (c: TeamClient) => Promise<T>): Promise<T> {
    const c = await client();
    try {
      return await fn(c);
    } catch (e) {
      if (e instanceof RatchetError) throw e;
      throw unreachable(c.url, e);
    }
  }

  async function connection(): Promise<TeamConnectionDoc> {
    if (!store.get()) return { ...settingsDoc(), overview: null, error: null };
    try {
      return { ...settingsDoc(), overview: await withClient((c) => c.overview()), error: null };
    } catch (e) {
      return { ...settingsDoc(), overview: null, error: (e as Error).message };
    }
  }

  const ok = { ok: true as const };
  return {
    handlers: {
      'team.settings': async () => settingsDoc(),
      'team.setUrl': async ({ url }) => {
        if (url === null) {
          await drop();
          await store.set(null);
          return connection();
        }
        // Checked before it is kept: a URL that does not connect is refused with what to do, and nothing is saved.
        const fresh = await connect(url);
        let overview;
        try {
          overview = await fresh.overview();
        } catch (e) {
          await fresh.close();
          throw unreachable(url, e);
        }
        try {
          await store.set(url);
        } catch (e) {
          await fresh.close();
          throw e;
        }
        await drop();
        current = { url, client: Promise.resolve(fresh) };
        return { ...settingsDoc(), overview, error: null };
      },
      'team.overview': async () => connection(),
      'team.list': async () => (store.get() ? withClient((c) => c.list()) : []),
      'team.status': async ({ runId }) => withClient((c) => c.status(runId)),
      'team.stop': async ({ runId }) => withClient((c) => c.stop(runId)).then(() => ok),
      'team.resume': async ({ runId }) => withClient((c) => c.resume(runId)).then(() => ok),
      'team.retry': async ({ runId }) => withClient((c) => c.retry(runId)).then(() => ok),
      'team.raiseBudget': async ({ runId, usd }) => withClient((c) => c.raiseBudget(runId, usd)).then(() => ok),
      'team.stats': async ({ days }) => (store.get() ? withClient((c) => c.stats(days)) : null),
      'team.follow': async ({ runId, follow: token }) => {
        await follow(runId, token);
        return ok;
      },
      'team.unfollow': async ({ runId, follow: token }) => {
        const f = followers.get(runId);
        if (f?.follow === token) {
          f.stop.abort();
          followers.delete(runId);
        }
        return ok;
      },
      'team.setPriority': async ({ runId, priority }) => {
        await withClient(async (c) => {
          const it = await c.item(runId);
          if (it.status !== 'queued')
            throw new RatchetError('bad_arguments', `Team run ${runId} is ${it.status}; only a queued run can be moved in the queue.`);
          await c.setPriority(runId, priority);
        });
        return ok;
      },
    },
    submit: (prepared, opts) => withClient((c) => c.submit(prepared, opts)),
    close: drop,
  };
}
