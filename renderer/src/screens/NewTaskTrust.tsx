// New task's trust prompt for the repository's workflow file: trust it before its commands run, or revoke a trust given before.
import type { MethodOutput } from '../../../shared/contract';
import { InlineError } from '../components/States';

type Trust = NonNullable<MethodOutput<'workflow.load'>['trust']>;

export function TrustBox({
  trust,
  trusted,
  onTrust,
  onRevoke,
  revokeError,
}: {
  /** The workflow file's trust record: its commands and whether it is trusted as it is. */
  trust: Trust;
  /** The user pressed Trust here (stored by the engine when the run starts). */
  trusted: boolean;
  onTrust: () => void;
  onRevoke: () => void;
  revokeError: string | null;
}) {
  return trust.trusted ? (
    <div className="trust-box" role="region" aria-label="workflow trust">
      <strong>You trust this workflow file as it is</strong>
      <p className="small-text">
        It runs its commands without asking; a change to the file asks again. Revoking makes it ask again now, retries and resumes of its runs included.
      </p>
      <button type="button" onClick={() => onRevoke()}>
        Revoke trust
      </button>
      <InlineError message={revokeError} />
    </div>
  ) : (
    <div className={trusted ? 'trust-box' : 'warning-box trust'} role="region" aria-label="workflow trust">
      <strong>{trusted ? 'You trust this workflow file' : 'Do you trust this workflow file?'}</strong>
      <p className="small-text">
        {/* Once trusted, it is no longer "new, or changed" (issue 34 item 8). */}
        {trusted
          ? 'It comes from the repository, as you trusted it. Checking the project or starting the run will run these commands on your machine and allow the repository’s code what is listed here:'
          : 'It comes from the repository (new, or changed since you last trusted it). Checking the project or starting the run will run these commands on your machine and allow the repository’s code what is listed here:'}
      </p>
      <ul>
        {trust.commands.map((c) => (
          <li key={`${c.source}:${c.command}`}>
            <span className="muted">{c.source}</span> <code>{c.command}</code>
            {c.warning && <div className="trust-warning">⚠ {c.warning}</div>}
          </li>
        ))}
      </ul>
      {!trusted && (
        <button type="button" onClick={onTrust}>
          Trust
        </button>
      )}
    </div>
  );
}
