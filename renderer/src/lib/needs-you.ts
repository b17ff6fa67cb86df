// The runs that need the user, local and team alike: one list and one count for the runs list, the dashboard and the window title.
import { useMemo } from 'react';
import type { RunSummary } from '../../../shared/contract';
import { runsNeedingYou } from '../../../shared/run-groups';
import type { TeamRunItem } from '../../../shared/team';
import { useRuns } from '../stores/runs';
import { useTeam } from '../stores/team';
import { withTeamRuns } from './team-runs';

const NONE: TeamRunItem[] = [];

/** Pure: the runs that need the user among local and team runs, most recently updated first. */
export function needsYouAmong(local: readonly RunSummary[], team: readonly TeamRunItem[]): RunSummary[] {
  return runsNeedingYou(withTeamRuns(local, team)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
}

/** The runs that need the user, with the team's runs as last loaded (the team store), and which of them are team runs. */
export function useNeedsYou(): { runs: RunSummary[]; team: ReadonlySet<string> } {
  const local = useRuns((s) => s.runs.data);
  const teamRuns = useTeam((s) => (s.settings?.url ? s.runs : NONE));
  return useMemo(() => ({ runs: needsYouAmong(local, teamRuns), team: new Set(teamRuns.map((t) => t.id)) }), [local, teamRuns]);
}
