// Failing tests parsed from a gate's report: name, expected / got, and where.
import type { AttemptDetail } from '../../../shared/contract';

type Failure = AttemptDetail['gates'][number]['failures'][number];

export function FailingTests({ failures }: { failures: Failure[] }) {
  if (failures.length === 0) return null;
  return (
    <table className="failing-tests">
      <caption>{failures.length} failing test{failures.length === 1 ? '' : 's'}</caption>
      <thead>
        <tr><th scope="col">test</th><th scope="col">expected</th><th scope="col">got</th><th scope="col">where</th></tr>
      </thead>
      <tbody>
        {failures.map((f, i) => (
          <tr key={`${f.name}-${i}`}>
            <td>
              <div className="test-name">{f.name}</div>
              {f.message && <div className="muted small-text">{f.message}</div>}
            </td>
            <td><code className="tone-good">{f.expected ?? '—'}</code></td>
            <td><code className="tone-bad">{f.actual ?? '—'}</code></td>
            <td><code>{f.file ? `${f.file}${f.line !== null ? `:${f.line}` : ''}` : '—'}</code></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
