// Home: drop or pick a repository to start a task, recent repositories, the runs list, and a banner for interrupted runs and runs paused between steps.
import { groupRuns, RUN_GROUP_LABEL, RUN_GROUPS, type RunGroup } from '../../../shared/run-groups';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunQueueDoc, RunSummary } from '../../../shared/contract';
import { useQueue } from '../stores/queue';
import { errorMessage } from '../lib/errors';
import { ago, baseName, money, reasonLine, sentence } from '../lib/format';
import { hrefs, navigate } from '../lib/route';
import { useProject } from '../stores/project';
import { useRuns } from '../stores/runs';
import { useUi } from '../stores/ui';
import { Empty, ErrorState, InlineError, Loading } from '../components/States';
import { RunStatusBadge, UncheckedBadge } from '../components/StatusBadge';
import { useRepoPicker } from '../components/FolderBrowser';
import { QueueRowControls } from '../components/QueueRowControls';
import { queuePlace } from '../lib/queue-order';
import { MiddleEllipsis } from '../components/MiddleEllipsis';
import { RUN_STATUS_LABEL } from '../components/StatusBadge';
import { RUN_STATUSES } from '../../../shared/domain';
import type { TeamRunItem } from '../../../shared/team';
import { teamPlace, withTeamRuns } from '../lib/team-runs';
import { usePoll } from '../lib/use-poll';
import { TEAM_POLL_MS, useTeam } from '../stores/team';
import { useTeamSet } from './NewTaskTeam';
import { runProgress } from '../lib/run-progress';
import { useNow } from '../lib/use-now';

/** The list's sections, what runs first (issue 34 item 1): running and queued runs above those that wait for you. */
const LIST_ORDER: readonly RunGroup[] = ['active', 'queued', 'needs_you', 'done'];
/** Past this many runs the Finished section starts folded, so what runs and what needs you stay on the first screen. */
const FOLD_FINISHED_OVER = 20;

/** Newest update first: the order inside every section but the queue's. */
const byUpdated = (a: RunSummary, b: RunSummary) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id);

export function HomeScreen() {
  return (
    <div className="screen home">
      <InterruptedBanner />
      <RepoDrop />
      <div className="home-columns">
        <RunsList />
        <RecentRepos />
      </div>
    </div>
  );
}

function InterruptedBanner() {
  const interrupted = useRuns((s) => s.interrupted.data);
  const openResume = useUi((s) => s.openResume);
  if (interrupted.length === 0) return null;
  const first = interrupted[0]!;
  return (
    <div className="banner banner-attention" role="status">
      <span>
        {interrupted.length === 1 ? (
          <>
            The run <strong>{first.title}</strong> {first.status === 'paused' ? 'is paused between steps' : 'was interrupted'}. Its work
          </>
        ) : (
          <>
            {interrupted.length} runs {interrupted.some((r) => r.status === 'paused') ? 'were interrupted or paused between steps' : 'were interrupted'}. Their
            work
          </>
        )}{' '}
        up to the last checkpoint is safe.
      </span>
      <button type="button" className="primary" onClick={() => openResume(first.id)}>
        Review and resume…
      </button>
    </div>
  );
}

/** Inspects a path and goes to New task; the error (not a repository, no commits...) is shown where the user acted. */
async function openRepo(path: string, setError: (m: string | null) => void, setBusy: (b: boolean) => void) {
  setBusy(true);
  setError(null);
  try {
    const repo = await useProject.getState().inspect(path);
    navigate(hrefs.newTask(repo.root));
  } catch (err) {
    setError(errorMessage(err));
  } finally {
    setBusy(false);
  }
}

function RepoDrop() {
  const [over, setOver] = useState(false);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [needsPath, setNeedsPath] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const canResolveDrops = typeof window.ratchet?.pathForFile === 'function';

  const onDrop = (e: React.DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    const resolved = file && window.ratchet?.pathForFile ? window.ratchet.pathForFile(file) : '';
    if (resolved) {
      void openRepo(resolved, setError, setBusy);
      return;
    }
    // A browser never reveals where a dropped folder lives: ask for the path instead.
    setNeedsPath(true);
    setError(
      file ? `The browser cannot tell where “${file.name}” is: paste its full path below.` : 'Nothing usable was dropped: paste the repository’s path below.',
    );
    input.current?.focus();
  };
  // The native dialog in the app; the host's folder browser in a browser (u13-next).
  const picker = useRepoPicker((picked) => void openRepo(picked, setError, setBusy), setError);
  const pick = () => {
    setError(null);
    picker.pick();
  };

  return (
    <section
      className={`dropzone${over ? ' dropzone-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      aria-label="open a repository"
    >
      {/* A browser never says where a dropped folder is: there, Open… and the path are the ways in. */}
      <div className="dropzone-title">{canResolveDrops ? 'Drop a git repository here' : 'Open a git repository'}</div>
      <div className="dropzone-actions">
        <button type="button" className="primary" onClick={pick} disabled={busy}>
          Open…
        </button>
        {(!canResolveDrops || needsPath) && (
          <form
            className="path-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (path.trim()) void openRepo(path.trim(), setError, setBusy);
            }}
          >
            <input
              ref={input}
              className="mono"
              aria-label="repository path"
              placeholder="/path/to/repository"
              value={path}
              onChange={(e) => setPath(e.target.value)}
            />
            <button type="submit" disabled={busy || !path.trim()}>
              {busy ? 'Checking…' : 'Use this path'}
            </button>
          </form>
        )}
      </div>
      <InlineError message={error} />
      {picker.dialog}
    </section>
  );
}

/** Queued runs by their place in the queue; one the queue does not list (it just started) goes last. */
function inQueueOrder(runs: readonly RunSummary[], queue: RunQueueDoc): RunSummary[] {
  const place = new Map(queue.queued.map((q) => [q.runId, q.position]));
  return [...runs].sort((a, b) => (place.get(a.id) ?? Infinity) - (place.get(b.id) ?? Infinity));
}

function QueuePlace({ runId, reason, queue }: { runId: string; reason: string | null; queue: RunQueueDoc | null }) {
  const me = queue?.queued.find((q) => q.runId === runId);
  return me ? (
    <div className="muted small-text truncate" title={reason ?? undefined}>
      {queuePlace(me.position)}
    </div>
  ) : null;
}

function RunRow({
  run: r,
  queue,
  onQueueChanged,
  team,
  progress,
}: {
  run: RunSummary;
  /** A running run's "step 2 · gate test · 1 min". */
  progress?: string | null;
  queue: RunQueueDoc | null;
  onQueueChanged: () => void;
  /** Set for a run on team workers: it opens the team run's screen and says where it runs. */
  team?: TeamRunItem;
}) {
  const href = team ? hrefs.teamRun(r.id) : hrefs.run(r.id);
  return (
    <tr className={`clickable${team ? ' team-row' : ''}`} onClick={() => navigate(href)}>
      <td>
        <RunStatusBadge status={r.status} wakeAt={r.wakeAt} />
        {r.checked === false && <UncheckedBadge />}
        {r.status === 'queued' && !team && <QueuePlace runId={r.id} reason={r.reason} queue={queue} />}
        {team && (
          <div>
            <span className="badge tone-info team-mark" title="Runs on the team’s workers (Settings › Team)">
              team
            </span>
          </div>
        )}
      </td>
      <td>
        <a className="run-title-link truncate" href={href} title={r.title} onClick={(e) => e.stopPropagation()}>
          {r.title}
        </a>
        {team && teamPlace(team) && (
          <div className="muted small-text truncate team-place" title={teamPlace(team) ?? undefined}>
            {teamPlace(team)}
          </div>
        )}
        {progress && <div className="muted small-text truncate run-progress">{progress}</div>}
        {r.status === 'queued' && !team ? (
          <QueueRowControls runId={r.id} title={r.title} queue={queue} onChanged={onQueueChanged} />
        ) : (
          r.reason &&
          r.status !== 'succeeded' && (
            <div className="muted small-text truncate" title={reasonLine(r.reason)}>
              {sentence(reasonLine(r.reason))}
            </div>
          )
        )}
      </td>
      <td>
        <div className="truncate" title={r.repo}>
          {baseName(r.repo)}
        </div>
        <MiddleEllipsis text={r.branch} className="muted small-text mono" />
      </td>
      <td className="num">
        {r.stepsDone}/{r.stepsTotal}
      </td>
      <td className="num">{money(r.costUsd)}</td>
      <td className="muted truncate" title={new Date(r.updatedAt).toLocaleString()}>
        {ago(r.updatedAt)}
      </td>
    </tr>
  );
}

const NO_TEAM_RUNS: TeamRunItem[] = [];

export interface RunsFilter {
  /** Words to find in the title, repository, branch, reason or id. */
  text: string;
  /** A group (`needs_you`, …), `status:<status>`, or '' for every run. */
  status: string;
  /** A repository path, or '' for every repository. */
  repo: string;
}

/** Pure: the runs the filter keeps, in the list's order. `group` tells which group a run is in (failed runs can be replaced). */
export function filterRuns(runs: readonly RunSummary[], f: RunsFilter, groupOf: (r: RunSummary) => RunGroup): RunSummary[] {
  const words = f.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return runs.filter((r) => {
    if (f.repo && r.repo !== f.repo) return false;
    if (f.status.startsWith('status:') ? r.status !== f.status.slice(7) : f.status && groupOf(r) !== f.status) return false;
    const hay = `${r.title}\n${r.repo}\n${r.branch}\n${r.reason ?? ''}\n${r.id}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

function RunsList() {
  const local = useRuns((s) => s.runs);
  const load = useRuns((s) => s.load);
  // Team runs (Settings › Team) join the list, asked for again every ~2 s while it is open: the team database has no push.
  const teamSet = useTeamSet();
  const teamRuns = useTeam((s) => (teamSet ? s.runs : NO_TEAM_RUNS));
  const teamError = useTeam((s) => (teamSet ? s.runsError : null));
  usePoll(() => useTeam.getState().loadRuns(), TEAM_POLL_MS, teamSet);
  const teamById = useMemo(() => new Map(teamRuns.map((t) => [t.id, t])), [teamRuns]);
  const merged = useMemo(() => withTeamRuns(local.data, teamRuns), [local.data, teamRuns]);
  const runs = useMemo(() => ({ ...local, data: merged }), [local, merged]);
  const filter = useUi((s) => s.runsFilter);
  const setFilter = useUi((s) => s.setRunsFilter);
  // The shared queue store (refetched after every run status change); loaded here too when Home opens first.
  const queue = useQueue((s) => s.doc);
  const loadQueue = useQueue((s) => s.load);
  const queuedCount = runs.data.filter((r) => r.status === 'queued').length;
  useEffect(() => {
    if (queuedCount > 0) void loadQueue();
  }, [queuedCount, loadQueue]);
  const groups = useMemo(() => groupRuns(runs.data), [runs.data]);
  const groupOf = useMemo(() => {
    const by = new Map<string, RunGroup>();
    for (const g of groups) for (const r of g.runs) by.set(r.id, g.group);
    return (r: RunSummary) => by.get(r.id) ?? 'done';
  }, [groups]);
  const repos = useMemo(() => [...new Set(runs.data.map((r) => r.repo))].sort((a, b) => baseName(a).localeCompare(baseName(b))), [runs.data]);
  const filtering = Boolean(filter.text.trim() || filter.status || filter.repo);
  const kept = useMemo(() => new Set(filterRuns(runs.data, filter, groupOf).map((r) => r.id)), [runs.data, filter, groupOf]);
  const shown = LIST_ORDER.flatMap((group) => {
    const listed = (groups.find((g) => g.group === group)?.runs ?? []).filter((r) => kept.has(r.id));
    return listed.length > 0 ? [{ group, runs: group === 'queued' ? listed : [...listed].sort(byUpdated) }] : [];
  });
  const live = useRuns((s) => s.live);
  const now = useNow(
    15_000,
    runs.data.some((r) => r.status === 'running'),
  );
  // Folded sections: Finished starts folded in a long list; a filter shows everything it keeps.
  const [folded, setFolded] = useState<ReadonlySet<RunGroup> | null>(null);
  const foldedNow = filtering ? new Set<RunGroup>() : (folded ?? new Set<RunGroup>(runs.data.length > FOLD_FINISHED_OVER ? ['done'] : []));
  const toggle = (g: RunGroup) => {
    const next = new Set(foldedNow);
    if (next.has(g)) next.delete(g);
    else next.add(g);
    setFolded(next);
  };
  return (
    <section className="runs card" aria-label="runs">
      <header className="card-header">
        <h2>Runs</h2>
        <div className="runs-filters" role="search">
          <input
            id="runs-filter"
            type="search"
            aria-label="filter runs"
            placeholder="Find a run…  ( / )"
            value={filter.text}
            onChange={(e) => setFilter({ text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setFilter({ text: '' });
                e.currentTarget.blur();
              }
            }}
          />
          <select aria-label="status" value={filter.status} onChange={(e) => setFilter({ status: e.target.value })}>
            <option value="">Every status</option>
            <optgroup label="Groups">
              {RUN_GROUPS.map((g) => (
                <option key={g} value={g}>
                  {RUN_GROUP_LABEL[g]}
                </option>
              ))}
            </optgroup>
            <optgroup label="Status">
              {RUN_STATUSES.map((st) => (
                <option key={st} value={`status:${st}`}>
                  {RUN_STATUS_LABEL[st]}
                </option>
              ))}
            </optgroup>
          </select>
          <select aria-label="repository" value={filter.repo} onChange={(e) => setFilter({ repo: e.target.value })}>
            <option value="">Every repository</option>
            {repos.map((p) => (
              <option key={p} value={p} title={p}>
                {baseName(p)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="small"
            onClick={() => {
              void load();
              if (teamSet) void useTeam.getState().loadRuns();
            }}
            disabled={runs.status === 'loading'}
          >
            Refresh
          </button>
        </div>
      </header>
      {teamError && <p className="inline-error small-text">Team runs could not be loaded: {teamError}</p>}
      {runs.status === 'loading' && runs.data.length === 0 && <Loading label="Loading runs…" />}
      {runs.status === 'error' && <ErrorState message={runs.error ?? ''} onRetry={() => void load()} title="Could not load the runs" />}
      {runs.status === 'ready' && runs.data.length === 0 && (
        <Empty title="No runs yet">{typeof window.ratchet?.pathForFile === 'function' ? 'Drop' : 'Open'} a repository above to start the first task.</Empty>
      )}
      {runs.data.length > 0 && shown.length === 0 && filtering && (
        <Empty title="No run matches">
          <button type="button" onClick={() => setFilter({ text: '', status: '', repo: '' })}>
            Clear the filters
          </button>
        </Empty>
      )}
      {shown.length > 0 && (
        // Fixed layout: the task column takes what the sized columns leave (never 0 px: see styles.css, u13-layout).
        <table className="runs-table">
          <colgroup>
            <col className="c-status" />
            <col className="c-task" />
            <col className="c-repo" />
            <col className="c-steps" />
            <col className="c-cost" />
            <col className="c-updated" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">status</th>
              <th scope="col">task</th>
              <th scope="col">repository</th>
              <th scope="col" className="num">
                steps
              </th>
              <th scope="col" className="num">
                cost
              </th>
              <th scope="col">updated</th>
            </tr>
          </thead>
          {shown.map(({ group, runs: listed }) => (
            <tbody key={group} aria-label={RUN_GROUP_LABEL[group]}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={6}>
                  <button type="button" className="group-toggle" aria-expanded={!foldedNow.has(group)} onClick={() => toggle(group)}>
                    <span aria-hidden="true" className="group-caret">
                      {foldedNow.has(group) ? '▸' : '▾'}
                    </span>
                    {RUN_GROUP_LABEL[group]} <span className="muted">{listed.length}</span>
                  </button>
                </th>
              </tr>
              {/* Queued runs in the order they will start (the queue's), the others by their last update. */}
              {!foldedNow.has(group) &&
                (group === 'queued' && queue ? inQueueOrder(listed, queue) : listed).map((r) => (
                  <RunRow
                    key={r.id}
                    run={r}
                    team={teamById.get(r.id)}
                    progress={runProgress(r, live[r.id], now)}
                    queue={queue}
                    onQueueChanged={() => {
                      void loadQueue();
                      void load();
                    }}
                  />
                ))}
            </tbody>
          ))}
        </table>
      )}
    </section>
  );
}

function RecentRepos() {
  const recent = useRuns((s) => s.recent);
  const load = useRuns((s) => s.loadRecent);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Each time Home is shown: a repository opened since (New task) belongs in the list. The old list stays up meanwhile.
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="recent card" aria-label="recent repositories">
      <header className="card-header">
        <h2>Recent repositories</h2>
      </header>
      {recent.status === 'loading' && recent.data.length === 0 && <Loading />}
      {recent.status === 'error' && <ErrorState message={recent.error ?? ''} onRetry={() => void load()} />}
      {recent.status === 'ready' && recent.data.length === 0 && <Empty title="None yet">Repositories you open appear here.</Empty>}
      <ul className="plain-list recent-list">
        {recent.data.map((r) => (
          <li key={r.path}>
            <button type="button" className="link-button" disabled={busy} onClick={() => void openRepo(r.path, setError, setBusy)}>
              <strong>{r.name}</strong>
              <MiddleEllipsis text={r.path} className="muted small-text mono" />
            </button>
            <span className="muted small-text">{ago(r.lastUsed)}</span>
          </li>
        ))}
      </ul>
      <InlineError message={error} />
    </section>
  );
}
