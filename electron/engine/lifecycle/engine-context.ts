// What the engine's parts share: the store, the clock, the user's settings as they are now, the sandbox, the run
// lease, and the few helpers every run path uses. createEngine builds it once; nothing else does.
import type { StatusDocument } from '../../../shared/domain';
import type { Agent } from '../agents/agent';
import type { PricingTable } from '../agents/pricing';
import type { createRunNotices } from '../notify/run-notices';
import type { runOwnership } from './run-ownership';
import type { RunStateKeeper } from './run-state-keeper';
import type { EngineDeps } from './run-options';
import type { OsSandbox, RunJail } from '../sandbox/os-sandbox';
import type { UserSettings } from '../settings/settings-store';
import type { Store } from '../store/store';
import type { TrustStore } from '../store/trust-queries';
import type { AgentConfig, Workflow } from '../workflow/schema';

export interface EngineContext {
  deps: EngineDeps;
  home: string;
  now: () => Date;
  rng: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  store: Store;
  trustStore: TrustStore;
  /** The user's settings as they are now (Settings may change them between runs). */
  settings(): UserSettings;
  sandbox(): OsSandbox;
  /** Throws `sandbox_unavailable` where the OS sandbox is required and missing. */
  requireSandbox(): void;
  /** Throws when an Anthropic agent has no key (refused before anything starts). */
  requireApiKey(workflow: Workflow): void;
  agentFor(config: AgentConfig, jail?: RunJail): Agent;
  hold: ReturnType<typeof runOwnership>['hold'];
  /** "Retry now" ends the backoff wait of a run this process executes through these. */
  skipControllers: Map<string, AbortController>;
  keeper: RunStateKeeper;
  status(runId: string): StatusDocument;
  noticesFor(runId: string, workflow: Workflow): ReturnType<typeof createRunNotices>;
  /** Steps whose commit is on the run's branch (what Retry can continue from). */
  committedSteps(runId: string): number;
  /** The pricing table as it is now (Settings may edit it): what estimates price tokens with. */
  pricing(): PricingTable;
}
