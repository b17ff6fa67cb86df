// A team run's workflow, and the one writer of a team run's status. The workflow is a `begin` durable step, then one
// `step` per Ratchet step; each answers the typed outcome of the step it ran (StepAnswer), and the workflow's body feeds
// it to the same pure run machine as a local run's loop (team-run-life.ts over run/run-machine.ts), carrying out its
// commands: runStep is the next durable step, a parked end a durable sleep, and setStatus is one write of the team's row
// (TeamDb.projectRunStatus) with the workflow's DBOS event TEAM_STATUS_EVENT. Nothing else writes a team run's status
// (team-status-owner.test.ts fails if anything does): Stop, Resume and Retry act on the workflow through DBOS (cancel,
// resume, rewind), and the team's list reads DBOS's word over the row (itemOf).
import { DBOS } from '@dbos-inc/dbos-sdk';
import { RatchetError } from '../errors';
import { TEAM_STATUS_EVENT, TEAM_WORKFLOW, type TeamDb } from '../store/team-db';
import { teamAfterStep, teamStart, type StepAnswer, type TeamStatus, type TeamTurn } from './team-run-life';

export interface TeamWorkflowDeps {
  db: Pick<TeamDb, 'projectRunStatus'>;
  /** The worker's id, kept with the status it projects (the team's list shows who runs the run). */
  workerId: string;
  /** The durable steps' bodies: the run made (or brought up to date) here, and its next step run and pushed. */
  begin(raw: unknown, runId: string): Promise<StepAnswer>;
  advance(raw: unknown, runId: string): Promise<StepAnswer>;
}

/** Registers the team run's workflow with DBOS (before DBOS.launch); answers it, for a team schedule to start runs of. */
export function registerTeamWorkflow(d: TeamWorkflowDeps): (raw: unknown) => Promise<StepAnswer> {
  return DBOS.registerWorkflow(
    async (raw: unknown): Promise<StepAnswer> => {
      const runId = String((raw as { runId?: unknown })?.runId);
      // The run machine's setStatus, carried out: replayed after a recovery in the same order, so the last write is the latest.
      const project = async (t: TeamTurn): Promise<void> => {
        for (const s of t.project) {
          await DBOS.setEvent<TeamStatus>(TEAM_STATUS_EVENT, s);
          await d.db.projectRunStatus(runId, { ...s, worker: d.workerId }).catch(() => undefined);
        }
      };
      let a = await DBOS.runStep(() => d.begin(raw, runId), { name: 'begin' });
      let t = teamStart(runId, a);
      await project(t);
      while (t.move.kind !== 'end') {
        if (t.move.kind === 'sleep') {
          await DBOS.sleep(Math.max(0, Date.parse(t.move.until) - (await DBOS.now())));
          // Woken as a local scheduler wakes a parked run: a new life of the machine, from the steps left.
          t = teamStart(runId, { events: [], pending: a.pending });
          await project(t);
          continue;
        }
        a = await DBOS.runStep(() => d.advance(raw, runId), {
          name: 'step',
          // Run again when the remote moved under it (team_lost_run), from what the remote has: a few times, a second apart.
          retriesAllowed: true,
          maxAttempts: 4,
          intervalSeconds: 1,
          backoffRate: 1.5,
          shouldRetry: (e) => e instanceof RatchetError && e.code === 'team_lost_run',
        });
        t = teamAfterStep(t.state, a);
        await project(t);
      }
      return a;
    },
    { name: TEAM_WORKFLOW },
  );
}
