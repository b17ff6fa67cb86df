// Settings › Schedules: runs of a task on a cron schedule (docs/schedules.md). A cron field shows its next five times in
// words as it is typed; each schedule shows its next time, its last run and the problem its last tick met.
import { useEffect, useState } from 'react';
import { useSchedules } from '../stores/schedules';

export function ScheduleSettings() {
  const list = useSchedules((s) => s.list);
  const error = useSchedules((s) => s.error);
  const preview = useSchedules((s) => s.preview);
  const [repo, setRepo] = useState('');
  const [cron, setCron] = useState('0 3 * * 1-5');
  const [tz, setTz] = useState('');
  const [task, setTask] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => {
    void useSchedules.getState().load();
  }, []);
  useEffect(() => {
    void useSchedules.getState().previewOf(cron, tz.trim() || null);
  }, [cron, tz]);
  const add = async () => {
    setRefused(await useSchedules.getState().add({ repo: repo.trim(), cron, tz: tz.trim() || null, task: task.trim() || null }));
  };
  return (
    <section className="card settings-section" aria-labelledby="h-schedules">
      <h2 id="h-schedules">Schedules</h2>
      <p className="small-text muted">
        A run of a task at each tick of a cron expression, while this app or another Ratchet host on this machine is running (a worker, the MCP server): each
        tick starts one run, however many are running. The repository’s workflow must be trusted.
      </p>
      {error && (
        <div className="warning-box" role="alert">
          {error}
        </div>
      )}
      <ul className="schedule-list" aria-label="Schedules">
        {list.map((s) => (
          <li key={s.id} data-testid={`schedule-${s.id}`}>
            <code>{s.cron}</code>
            {s.tz ? ` (${s.tz})` : ''} — {s.repo}
            {s.task ? `: ${s.task}` : ''}{' '}
            <span className={`badge tone-${s.paused ? 'muted' : s.problem ? 'bad' : 'good'}`}>{s.paused ? 'paused' : s.problem ? 'problem' : 'on'}</span>
            {s.problem && <div className="small-text warning-text">{s.problem}</div>}
            <div className="small-text muted">
              {s.nextAt ? `next ${new Date(s.nextAt).toLocaleString()}` : 'no next time'}
              {s.lastRunId ? ` · last run ${s.lastRunId}` : ''}
            </div>
            <button type="button" onClick={() => void useSchedules.getState().setPaused(s.id, !s.paused)}>
              {s.paused ? 'Resume' : 'Pause'}
            </button>{' '}
            <button type="button" onClick={() => void useSchedules.getState().remove(s.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <label>
        Repository <input value={repo} onChange={(e) => setRepo(e.target.value)} placeholder="/path/to/repo" />
      </label>
      <label>
        Cron <input aria-label="Cron expression" value={cron} onChange={(e) => setCron(e.target.value)} placeholder="0 3 * * 1-5" />
      </label>
      <label>
        Time zone <input value={tz} onChange={(e) => setTz(e.target.value)} placeholder="this machine’s (or Europe/Paris)" />
      </label>
      <label>
        Task <input value={task} onChange={(e) => setTask(e.target.value)} placeholder="the workflow’s task" />
      </label>
      {preview?.error && <div className="small-text warning-text">{preview.error}</div>}
      {preview && !preview.error && (
        <ol className="small-text" aria-label="Next times">
          {preview.next.map((n) => (
            <li key={n.at}>{n.text}</li>
          ))}
        </ol>
      )}
      {refused && (
        <div className="warning-box" role="alert">
          {refused}
        </div>
      )}
      <button type="button" className="primary" disabled={!repo.trim() || Boolean(preview?.error)} onClick={() => void add()}>
        Add schedule
      </button>
    </section>
  );
}
