// Settings › Team: the team database's URL (kept like the API key, its password never shown back), checked when saved,
// and the team at a glance: its workers (alive or gone), the queue's limits and today's spend against the daily budget.
import { useEffect, useState } from 'react';
import { appWords } from '../lib/app-words';
import type { TeamConnectionDoc } from '../../../shared/contract';
import type { TeamOverview } from '../../../shared/team';
import { ago, money } from '../lib/format';
import { useTeam } from '../stores/team';
import { FormNotices, SecretForm } from '../components/SecretForm';

const URL_SOURCE: Record<TeamConnectionDoc['source'], string> = {
  safe_storage: 'Kept encrypted by the operating system’s keychain (Electron safeStorage), never in plain text.',
  environment: 'Read from RATCHET_TEAM_URL in the environment Ratchet was started with.',
  session: 'Kept in the browser host’s memory until it stops (a browser host has no keychain).',
  none: 'No team is set: runs start on this machine only.',
};

const WORKER_TONE = { alive: 'good', gone: 'bad', stopped: 'muted' } as const;

export function TeamSettings() {
  const settings = useTeam((s) => s.settings);
  const connection = useTeam((s) => s.connection);
  const saving = useTeam((s) => s.saving);
  const saveError = useTeam((s) => s.saveError);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    void useTeam.getState().check();
  }, []);
  const submit = async (value: string | null) => {
    setSaved(null);
    if (!(await useTeam.getState().setUrl(value))) return false;
    setSaved(value ? 'Connected and saved.' : 'Team removed.');
    return true;
  };
  const set = Boolean(settings?.url);
  return (
    <section className="card settings-section" aria-labelledby="h-team">
      <h2 id="h-team">Team</h2>
      <p className="small-text muted">
        Runs on team workers: machines running <code>ratchet worker --team &lt;url&gt;</code> take runs from a queue in a shared PostgreSQL database. The
        database holds the runs’ prompts and transcripts (they contain code): use TLS (<code>?sslmode=require</code>) and a user of its own.
      </p>
      {settings && (
        <p className="small-text">
          <span className={`badge tone-${set ? 'good' : 'muted'}`}>{set ? 'set' : 'not set'}</span> {URL_SOURCE[settings.source]}
        </p>
      )}
      {settings?.url && (
        <p className="small-text team-url">
          <span className="muted">Database </span>
          {/* Its password is replaced by *** before it leaves the service. */}
          <code className="selectable" data-testid="team-url">
            {settings.url}
          </code>
        </p>
      )}
      {settings?.warning && (
        <div className="warning-box" role="alert">
          {appWords(settings.warning)}
        </div>
      )}
      {settings?.source !== 'environment' && (
        // The URL carries a password: write-only, like the API key.
        <SecretForm
          label="team database URL"
          placeholder="postgres://user:password@host:5432/ratchet"
          replacePlaceholder="Replace: postgres://user:password@host:5432/ratchet"
          set={set}
          saving={saving}
          errorId={saveError ? 'team-error' : null}
          saveText="Save and connect"
          checkingText="Connecting…"
          removeText="Remove team"
          onSubmit={submit}
        />
      )}
      <FormNotices error={saveError} errorId="team-error" saved={saved} />
      {connection?.error && (
        <p className="inline-error" role="alert">
          {connection.error}
        </p>
      )}
      {connection?.overview && <TeamAtAGlance overview={connection.overview} />}
    </section>
  );
}

function TeamAtAGlance({ overview: o }: { overview: TeamOverview }) {
  const alive = o.workers.filter((w) => w.state === 'alive').length;
  return (
    <div className="team-glance" aria-label="the team">
      <dl className="facts">
        <div>
          <dt>limits</dt>
          <dd>
            {o.limits.global} at once in all · {o.limits.perWorker} per worker · {o.limits.perRepo} per repository
          </dd>
        </div>
        <div>
          <dt>spent today</dt>
          <dd data-testid="team-spent">
            {money(o.spentTodayUsd)}
            {o.dailyBudgetUsd !== null ? ` of ${money(o.dailyBudgetUsd)} daily budget` : ' (no daily budget)'}
          </dd>
        </div>
      </dl>
      <h3 className="small-text">
        Workers: <span className="muted">{o.workers.length === 0 ? 'none yet' : `${alive} of ${o.workers.length} alive`}</span>
      </h3>
      {o.workers.length === 0 ? (
        <p className="muted small-text">
          No worker has joined: start one with <code>ratchet worker --team &lt;url&gt;</code>. Runs submitted meanwhile wait in the queue.
        </p>
      ) : (
        <table className="team-workers small-text">
          <thead>
            <tr>
              <th scope="col">worker</th>
              <th scope="col">state</th>
              <th scope="col" className="num">
                running
              </th>
              <th scope="col">last seen</th>
            </tr>
          </thead>
          <tbody>
            {o.workers.map((w) => (
              <tr key={w.id}>
                <td className="mono truncate" title={w.id}>
                  {w.id}
                </td>
                <td>
                  <span className={`badge tone-${WORKER_TONE[w.state]}`}>{w.state}</span>
                </td>
                <td className="num">
                  {w.running}/{w.concurrency}
                </td>
                <td className="muted" title={new Date(w.lastSeen).toLocaleString()}>
                  {ago(w.lastSeen)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
