// The engine's front door: what the hosts (the CLI, the headless host, the Electron shell) import, and nothing deeper
// (the layer lint holds them to it). The engine they get has no store: they reach it through the engine's methods.
import { createEngine as buildEngine, type Engine as EngineWithStore } from './engine';
import type { EngineDeps } from './lifecycle/run-options';
import { createService as serviceOf, type ServiceOptions, type Service } from './service/service';
import { landingHandlers as landingOf } from './service/service-landing';
import { runWorker as workerOf, type WorkerOptions } from './team/team-worker';
import { scheduleBook as bookOf } from './schedule/schedule-book';
import { createScheduleTicker as tickerOf, type TickerOptions } from './schedule/schedule-ticker';
import { startLocalSchedules as localOf } from './schedule/schedule-host';

/** The engine as a host holds it: every method, not the store (the engine's own layers reach that). */
export type Engine = Omit<EngineWithStore, 'store'>;

/** Builds the engine (nothing happens on import). */
export const createEngine: (deps: EngineDeps) => Engine = buildEngine;

// Every Engine a host holds was made by createEngine above: the layers below it get it back whole.
const whole = (engine: Engine): EngineWithStore => engine as EngineWithStore;

/** The contract's handlers over the engine (service/service.ts). */
export const createService = (engine: Engine, opts: ServiceOptions): Service => serviceOf(whole(engine), opts);
/** Landing a succeeded run: merge, push, preview (service/service-landing.ts). */
export const landingHandlers = (engine: Engine, host: 'electron' | 'headless') => landingOf(whole(engine), host);
/** Schedules as the CLI and Settings list and change them (schedule/schedule-book.ts). */
export const scheduleBook = (engine: Engine, now?: () => Date) => bookOf(whole(engine), now);
/** A schedule's ticks while a host runs (schedule/schedule-ticker.ts). */
export const createScheduleTicker = (engine: Engine, o: TickerOptions) => tickerOf(whole(engine), o);
/** Local schedules in a process that is not one of the app's hosts: `ratchet worker` (schedule/schedule-host.ts). */
export const startLocalSchedules = (engine: Engine, o: Parameters<typeof localOf>[1]) => localOf(whole(engine), o);
/** A team worker (team/team-worker.ts). */
export const runWorker = (o: Omit<WorkerOptions, 'engine'> & { engine: Engine }) => workerOf({ ...o, engine: whole(o.engine) });

export * from './light';
export type { ConfirmNext, EngineDeps, ExecuteOptions, PreparedRun, StartRunInput } from './engine';
export { toCallError, type Service, type ServiceOptions } from './service/service';
export type { TeamUrlStore } from './service/service-team';
export { isBelow, isWithin } from './fs/within';
export { hardenOwnPath, whichIn } from './process/which';
export { processAlive } from './process/process-alive';
export { inspectRepo } from './git/repo-git';
export { detectProject } from './project/detect-project';
export { initWorkflowText, NOT_FOUND } from './project/init-workflow';
export { checkWorkflowText, findWorkflowFile, readWorkflowBytes, type WorkflowProblem } from './workflow/load-workflow';
export { StepConfig } from './workflow/schema';
export { parseTaskRetryConfig } from './policy/task-retry-config';
export { policyDoc, policyLines } from './policy/policy-doc';
export type { SharedDay } from './policy/budget';
export type { RecoveryOption, RequiredAction } from './run/resume-plan';
export { tddCheckLine } from './step/tdd';
export { draftPlan } from './agents/plan-draft';
export { environmentLines } from './worktree-env/prepare-worktree';
export { trustLines } from './trust/trust-items';
export { UntrustedWorkflow } from './trust/check-trust';
export type { OwnRunFacts } from './notify/run-facts';
export type { SecretStore } from './settings/secret-store';
export { loadSettings } from './settings/settings-store';
export type { EngineEvent, RunRow } from './store/store';
export { redactTeamUrl } from './store/team-db';
export { doctorText, runDoctor } from './store/doctor';
export { runsToStart } from './lifecycle/run-scheduler';
export type { ResumeInfo } from './lifecycle/run-recovery';
export { openTeam, type TeamClient } from './team/team-client';
export { neverPassed, type WorkerAllowances } from './team/team-allow';
export { githubToken } from './settings/forge-token';
export { withSavedForge } from './forge/forge-config';
export { decidingChecks, type WatchEnd, type WatchLook } from './forge/pr-watch';
export type { OpenedPull } from './forge/run-pull';
export { issueTask, parseIssueRef, readIssue, workflowWithIssue } from './forge/issue-intake';
export { githubLogin } from './forge/github-user';
export { parseFix, type FixKind, type PullLoopEnd } from './forge/pr-loop';
export { commentDoc, roundDoc, type NewReviewComment } from './review/review-round';
export type { ScheduleBook } from './schedule/schedule-book';
export type { ScheduleTicker } from './schedule/schedule-ticker';
