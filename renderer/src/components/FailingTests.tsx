// Failing tests and compile errors parsed from a gate's output or report, as the retry prompt lists them: name,
// expected / got (or the error), and file:line.
import type { AttemptDetail } from '../../../shared/contract';

export type Failure = AttemptDetail['gates'][number]['failures'][number];

function location(f: Failure): string | null {
  if (!f.file) return null;
  return f.line === null ? f.file : `${f.file}:${f.line}${f.column ? `:${f.column}` : ''}`;
}

function caption(failures: Failure[]): string {
  const errors = failures.filter((f) => f.kind === 'compile').length;
  const tests = failures.length - errors;
  return [errors ? `${errors} error${errors === 1 ? '' : 's'}` : '', tests ? `${tests} failing test${tests === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(' and ');
}

/** `onLocate`, when given, makes each file:line a link to that line in the attempt's diff or gate output. */
export function FailingTests({ failures, onLocate }: { failures: Failure[]; onLocate?: (f: Failure) => void }) {
  if (failures.length === 0) return null;
  // Compile errors first: nothing runs until they are fixed (the retry prompt orders them the same way).
  const ordered = [...failures.filter((f) => f.kind === 'compile'), ...failures.filter((f) => f.kind !== 'compile')];
  return (
    <table className="failing-tests">
      <caption>{caption(failures)}</caption>
      <thead>
        <tr>
          <th scope="col">test or error</th>
          <th scope="col">expected</th>
          <th scope="col">got</th>
          <th scope="col">where</th>
        </tr>
      </thead>
      <tbody>
        {ordered.map((f, i) => {
          const where = location(f);
          const nothingCompared = f.expected === null && f.actual === null;
          return (
            <tr key={`${f.name}-${i}`} data-kind={f.kind ?? 'test'}>
              <td>
                <div className="test-name">{f.name}</div>
                {f.message && !nothingCompared && <div className="muted small-text">{f.message}</div>}
              </td>
              {nothingCompared ? (
                // Nothing to compare (a test file that did not load, a compile error): the error line, not two empty pills.
                <td colSpan={2} className="failure-error-line">
                  {f.message ? <code className="tone-bad">{f.message}</code> : <span className="muted">no expected value or result in the output</span>}
                </td>
              ) : (
                <>
                  <td>
                    <code className="tone-good">{f.expected ?? '—'}</code>
                  </td>
                  <td>
                    <code className="tone-bad">{f.actual ?? '—'}</code>
                  </td>
                </>
              )}
              <td>
                {!where ? (
                  <code>—</code>
                ) : onLocate ? (
                  <button type="button" className="location-link" title={`show ${where}`} onClick={() => onLocate(f)}>
                    <code>{where}</code>
                  </button>
                ) : (
                  <code title={where}>{where}</code>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
