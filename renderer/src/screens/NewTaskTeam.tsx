// New task's "Run on team workers": shown only when a team database is set (Settings › Team); the run then goes on the
// team's queue, where a `ratchet worker` takes it, instead of starting on this machine.
import { useEffect } from 'react';
import { useTeam } from '../stores/team';

/** Whether a team is set here (loads the team setting once). */
export function useTeamSet(): boolean {
  const settings = useTeam((s) => s.settings);
  useEffect(() => {
    if (!settings) void useTeam.getState().loadSettings();
  }, [settings]);
  return Boolean(settings?.url);
}

export function TeamChoice({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <fieldset className="team-choice">
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> Run on team workers
      </label>
      <p className="muted small-text">
        The run waits in the team’s queue and a worker (<code>ratchet worker</code>) runs it with its own API key, from the repository’s <code>origin</code>:
        push this commit there first. Your trust in the workflow file travels with the run: a worker runs only the file you trusted.
      </p>
    </fieldset>
  );
}
