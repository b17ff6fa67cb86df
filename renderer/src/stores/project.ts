// Project store: what detection proposes for a repository and its baseline check ("Check project"), with the check's live
// progress; and the calls New task and Home make about a repository (inspect, pick, browse, its workflow file, a drafted plan).
import { create } from 'zustand';
import type { EventPayload, MethodInput, MethodOutput } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

type Detected = MethodOutput<'project.detect'>;
type Baseline = MethodOutput<'project.baseline'>;
export type BaselineInput = MethodInput<'project.baseline'>;
export type BaselineProgress = Omit<EventPayload<'project.onBaseline'>, 'repo'>;

export interface DetectionState {
  status: 'loading' | 'ready' | 'error';
  data: Detected | null;
  error: string | null;
}

export interface BaselineState {
  status: 'running' | 'done' | 'error';
  /** What was checked (the call's input as a key): a result for other settings than the form's is shown as such. */
  checked: string;
  /** The setup commands checked, as the form showed them (the answer names only their outcome). */
  setup: string[];
  progress: BaselineProgress[];
  result: Baseline | null;
  error: string | null;
}

interface ProjectState {
  /** By repository root. */
  detection: Record<string, DetectionState>;
  baseline: Record<string, BaselineState>;
  detect(repo: string): Promise<void>;
  check(input: BaselineInput, setup: string[]): Promise<void>;
  applyProgress(p: EventPayload<'project.onBaseline'>): void;
  /** The repository a path lies in (its root, name, HEAD); throws with the reason when it is none. */
  inspect(path: string): Promise<MethodOutput<'repos.inspect'>>;
  /** The desktop app's native folder dialog: the folder chosen, or null. */
  pick(): Promise<string | null>;
  /** One folder's subfolders, for the browser host's folder browser. */
  browse(dir: string | null, showHidden: boolean): Promise<MethodOutput<'repos.browse'>>;
  /** The repository's workflow file as New task shows it (steps, gates, setup, and what trusting it would allow). */
  loadWorkflow(repo: string): Promise<MethodOutput<'workflow.load'>>;
  revokeTrust(repo: string): Promise<void>;
  /** The agent's draft of a plan for a task. */
  draftPlan(repo: string, title: string, description: string): Promise<MethodOutput<'plans.draft'>>;
}

/** The key a baseline input is compared by (the repository and everything it checks). */
export function baselineKey(input: BaselineInput): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return JSON.stringify(sorted(input));
}

export const useProject = create<ProjectState>()((set, get) => ({
  detection: {},
  baseline: {},

  async detect(repo) {
    set((s) => ({ detection: { ...s.detection, [repo]: { status: 'loading', data: s.detection[repo]?.data ?? null, error: null } } }));
    try {
      const data = await getApi().call('project.detect', { repo });
      set((s) => ({ detection: { ...s.detection, [repo]: { status: 'ready', data, error: null } } }));
    } catch (err) {
      set((s) => ({ detection: { ...s.detection, [repo]: { status: 'error', data: null, error: errorMessage(err) } } }));
    }
  },

  async check(input, setup) {
    const repo = input.repo;
    if (get().baseline[repo]?.status === 'running') return;
    const checked = baselineKey(input);
    set((s) => ({ baseline: { ...s.baseline, [repo]: { status: 'running', checked, setup, progress: [], result: null, error: null } } }));
    try {
      const result = await getApi().call('project.baseline', input);
      set((s) => ({ baseline: { ...s.baseline, [repo]: { ...(s.baseline[repo] as BaselineState), status: 'done', result } } }));
    } catch (err) {
      set((s) => ({ baseline: { ...s.baseline, [repo]: { ...(s.baseline[repo] as BaselineState), status: 'error', error: errorMessage(err) } } }));
    }
  },

  inspect: (path) => getApi().call('repos.inspect', { path }),
  async pick() {
    return (await getApi().call('repos.pick', {})).path;
  },
  browse: (dir, showHidden) => getApi().call('repos.browse', { dir, showHidden }),
  loadWorkflow: (repo) => getApi().call('workflow.load', { repo }),
  async revokeTrust(repo) {
    await getApi().call('trust.revoke', { repo });
  },
  draftPlan: (repo, title, description) => getApi().call('plans.draft', { repo, title, description }),

  applyProgress({ repo, ...p }) {
    const cur = get().baseline[repo];
    if (cur?.status !== 'running') return;
    set((s) => ({ baseline: { ...s.baseline, [repo]: { ...cur, progress: [...cur.progress, p] } } }));
  },
}));
