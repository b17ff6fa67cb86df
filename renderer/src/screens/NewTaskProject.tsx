// New task's Project section: the setup, files to copy and gates a run uses (the repository's workflow file, else what detection found), and "Check project" (the baseline check).
import type { ReactNode } from 'react';
import type { MethodOutput } from '../../../shared/contract';
import { GatesEditor, type GateRow } from '../components/GatesEditor';
import { InlineError, Loading } from '../components/States';
import { duration, plural, shortSha } from '../lib/format';
import type { BaselineState, DetectionState } from '../stores/project';

type Baseline = MethodOutput<'project.baseline'>;

/** The environment as New task edits it: setup commands one per line, network entries and files to copy as words. */
export interface EnvForm {
  setup: string;
  network: string;
  copy: string;
  gates: GateRow[];
}

export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
export function words(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);
}

export function ProjectSection(props: {
  /** Where the form's values came from: the repository's file (as it is, or edited here), detection, or nothing yet. */
  origin: { kind: 'file'; file: string; edited: boolean } | { kind: 'detected' } | { kind: 'loading' };
  detection: DetectionState | undefined;
  env: EnvForm;
  onChange: (env: EnvForm) => void;
  onUseFile: () => void;
  /** The workflow file's trust prompt, when the run would use the file. */
  trust: ReactNode;
  baseline: BaselineState | undefined;
  /** The baseline shown was checked with other settings than the form's. */
  baselineStale: boolean;
  checkBlocked: string | null;
  onCheck: () => void;
}) {
  const { origin, detection, env, onChange, baseline } = props;
  const found = detection?.data?.found ?? [];
  const set = (patch: Partial<EnvForm>) => onChange({ ...env, ...patch });
  const detected = detection?.data;
  return (
    <fieldset className="project-env" aria-label="project">
      <legend>Project</legend>
      <p className="small-text" aria-label="where the project settings come from">
        {origin.kind === 'file' &&
          (origin.edited ? (
            <>
              You changed what <code>{origin.file}</code> says: the run uses your version below.{' '}
              <button type="button" className="inline-link" onClick={props.onUseFile}>
                Use the file’s
              </button>
            </>
          ) : (
            <>
              From the repository’s workflow file <code>{origin.file}</code>: setup, files to copy and gates as it says. Edit them to run your version instead.
            </>
          ))}
        {origin.kind === 'detected' &&
          (found.length ? (
            <>
              Detected{' '}
              {found.map((f, i) => (
                <span key={f.ecosystem}>
                  {i > 0 && ', '}
                  <strong>{f.label}</strong> <span className="muted">({f.evidence.join(', ')})</span>
                </span>
              ))}
              . Review and edit what a run will do; <code>ratchet init</code> writes it to <code>ratchet.yml</code>.
            </>
          ) : (
            <>Nothing Ratchet knows was found in this repository: write the command that runs its tests as a gate, and the setup it needs.</>
          ))}
        {origin.kind === 'loading' && <span className="muted">Reading the repository’s files…</span>}
      </p>
      <InlineError message={detection?.status === 'error' ? detection.error : null} />
      {props.trust}

      <label className="field">
        <span>
          Setup <span className="muted small-text">· commands run once in a fresh worktree, one per line</span>
        </span>
        <textarea
          aria-label="setup commands"
          className="mono"
          rows={Math.max(2, lines(env.setup).length + 1)}
          value={env.setup}
          placeholder="none: the worktree needs nothing installed"
          onChange={(e) => set({ setup: e.target.value })}
        />
      </label>
      <div className="env-grid">
        <label className="field">
          <span>
            Setup may reach <span className="muted small-text">· registry:&lt;ecosystem&gt; or host names</span>
          </span>
          <input aria-label="setup network" className="mono" value={env.network} placeholder="none" onChange={(e) => set({ network: e.target.value })} />
        </label>
        <label className="field">
          <span>
            Files to copy <span className="muted small-text">· from your checkout, never committed; the agent reads them</span>
          </span>
          <input aria-label="files to copy" className="mono" value={env.copy} placeholder="none (e.g. .env)" onChange={(e) => set({ copy: e.target.value })} />
        </label>
      </div>
      <GatesEditor rows={env.gates} onChange={(gates) => set({ gates })} />
      {origin.kind === 'detected' && detected && detected.setup.length + detected.gates.length + detected.copy.length + detected.notes.length > 0 && (
        <details className="why-list">
          <summary>Why these</summary>
          <ul className="small-text">
            {detected.setup.map((s) => (
              <li key={`s:${s.run}`}>
                <code>{s.run}</code>: {s.why}
              </li>
            ))}
            {detected.network.map((n) => (
              <li key={`n:${n.entry}`}>
                <code>{n.entry}</code>: {n.why}
              </li>
            ))}
            {detected.gates.map((g) => (
              <li key={`g:${g.name}`}>
                gate <code>{g.name}</code>: {g.why}
              </li>
            ))}
            {detected.copy.map((c) => (
              <li key={`c:${c.glob}`}>
                <code>{c.glob}</code>: {c.why}
              </li>
            ))}
            {detected.notes.map((n) => (
              <li key={`x:${n}`} className="muted">
                {n}
              </li>
            ))}
          </ul>
        </details>
      )}

      <div className="baseline-actions">
        <button type="button" onClick={props.onCheck} disabled={baseline?.status === 'running' || props.checkBlocked !== null}>
          {baseline?.status === 'done' ? 'Check again' : 'Check project'}
        </button>
        <span className="muted small-text">
          {props.checkBlocked ?? 'Runs setup and the gates once on the current commit, before any agent money is spent.'}
        </span>
      </div>
      <BaselineView baseline={baseline} stale={props.baselineStale} />
    </fieldset>
  );
}

function progressLabel(b: BaselineState): string {
  const last = [...b.progress].reverse().find((p) => p.state === 'started');
  if (!last) return 'Checking the project: making a worktree of the current commit…';
  return last.phase === 'setup' ? 'Checking the project: running setup…' : `Checking the project: running gate ${last.gate ?? ''}…`;
}

function BaselineView({ baseline, stale }: { baseline: BaselineState | undefined; stale: boolean }) {
  if (!baseline) return null;
  if (baseline.status === 'running') return <Loading label={progressLabel(baseline)} />;
  if (baseline.status === 'error') return <InlineError message={baseline.error} />;
  const r = baseline.result as Baseline;
  const failing = r.failingTests;
  return (
    <section className="baseline-result" aria-label="baseline check">
      {r.ready ? (
        <div className="ok-box">
          <strong>Ready to run</strong>{' '}
          <span className="small-text">
            Setup and gates ran on <code>{shortSha(r.commit)}</code> in {duration(r.durationMs)}
            {failing.length ? '.' : '; every gate passed.'}
          </span>
          {failing.length > 0 && (
            <>
              <p className="small-text">
                {plural(failing.length, 'test')} already {failing.length === 1 ? 'fails' : 'fail'} before the agent starts; a run tells the agent, and does not
                hold {failing.length === 1 ? 'it' : 'them'} against it:
              </p>
              <ul className="small-text">
                {failing.slice(0, 8).map((t) => (
                  <li key={t}>
                    <code>{t}</code>
                  </li>
                ))}
                {failing.length > 8 && <li className="muted">and {failing.length - 8} more</li>}
              </ul>
            </>
          )}
        </div>
      ) : (
        <div className="warning-box" role="alert">
          <strong>Not ready to run</strong>
          <p className="small-text pre-line">{r.problem ?? 'The project could not be set up.'}</p>
        </div>
      )}
      {stale && <p className="muted small-text">Checked with other settings or on an earlier commit than these: check again to see what a run would meet.</p>}
      <table className="baseline-table small-text">
        <thead>
          <tr>
            <th scope="col">what</th>
            <th scope="col">command</th>
            <th scope="col">result</th>
          </tr>
        </thead>
        <tbody>
          {r.setup && (
            <tr>
              <td>setup</td>
              <td>
                {baseline.setup.length ? (
                  baseline.setup.map((c) => (
                    <code key={c} className="cmd-line">
                      {c}
                    </code>
                  ))
                ) : (
                  <span className="muted">{r.setup.note ?? ''}</span>
                )}
              </td>
              <td>
                <span className={`badge tone-${r.setup.outcome === 'ok' ? 'good' : r.setup.outcome === 'failed' ? 'bad' : 'muted'}`}>
                  {r.setup.outcome === 'ok' ? 'done' : r.setup.outcome}
                </span>{' '}
                {duration(r.setup.durationMs)}
              </td>
            </tr>
          )}
          {r.gates.map((g) => (
            <tr key={g.gate}>
              <td>{g.gate}</td>
              <td>
                <code>{g.command}</code>
              </td>
              <td>
                <span className={`badge tone-${g.passed ? 'good' : 'bad'}`}>{g.passed ? 'passed' : g.timedOut ? 'timed out' : 'failed'}</span>{' '}
                {duration(g.durationMs)}
                {!g.passed && g.message ? <span className="muted"> · {g.message}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(r.setup?.outputTail || r.gates.some((g) => !g.passed && g.outputTail)) && (
        <details>
          <summary className="small-text">Output (last lines)</summary>
          {r.setup?.outputTail && (
            <>
              <p className="small-text muted">setup</p>
              <pre className="mono output-tail">{r.setup.outputTail}</pre>
            </>
          )}
          {r.gates
            .filter((g) => !g.passed && g.outputTail)
            .map((g) => (
              <div key={g.gate}>
                <p className="small-text muted">{g.gate}</p>
                <pre className="mono output-tail">{g.outputTail}</pre>
              </div>
            ))}
        </details>
      )}
    </section>
  );
}
