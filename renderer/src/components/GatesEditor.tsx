// Editable gates for a task: rows of name -> command (test, build, lint...).
import { Icon } from './Icon';

export type GateRow = { name: string; command: string };

export function GatesEditor({ rows, onChange }: { rows: GateRow[]; onChange: (rows: GateRow[]) => void }) {
  const set = (i: number, patch: Partial<GateRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const names = rows.map((r) => r.name.trim());
  return (
    <fieldset className="gates-editor">
      <legend>Gates</legend>
      <p className="muted small-text">Checks every step must pass before it is committed. A failed gate is retried with its output in the agent's context.</p>
      {rows.length === 0 ? (
        <p className="small-text">
          No gate yet: nothing would check the agent's work. Add the command that runs your tests, or start with "Run without checks".
        </p>
      ) : (
        <table className="edit-table gates-table">
          {/* A name is a word; the command is what needs the room (issue 34 item 8). */}
          <colgroup>
            <col className="gate-name-col" />
            <col />
            <col className="gate-remove-col" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">name</th>
              <th scope="col">command</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>
                  <input
                    aria-label={`gate ${i + 1} name`}
                    value={r.name}
                    placeholder="test"
                    onChange={(e) => set(i, { name: e.target.value })}
                    aria-invalid={r.name.trim() !== '' && names.indexOf(r.name.trim()) !== i}
                  />
                </td>
                <td>
                  {/* The placeholder must not read as a value (an empty field runs nothing): an empty command is an error here, as `ratchet check` says. */}
                  <textarea
                    aria-label={`gate ${i + 1} command`}
                    className="mono gate-command-field"
                    value={r.command}
                    rows={commandRows(r.command)}
                    placeholder="the command that runs the tests"
                    onChange={(e) => set(i, { command: e.target.value.replace(/\n/g, ' ') })}
                    // One command, one line: Enter does not break it (the field wraps a long one so it reads whole).
                    onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
                    aria-invalid={!r.command.trim()}
                    aria-describedby={!r.command.trim() ? `gate-${i + 1}-empty` : undefined}
                  />
                  {!r.command.trim() && (
                    <span id={`gate-${i + 1}-empty`} className="field-error small-text">
                      gate "{r.name.trim() || i + 1}" needs a command (a gate cannot be empty), or remove it
                    </span>
                  )}
                </td>
                <td>
                  <button type="button" className="icon-button" aria-label={`remove gate ${i + 1}`} onClick={() => onChange(rows.filter((_, k) => k !== i))}>
                    <Icon name="close" />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" onClick={() => onChange([...rows, { name: '', command: '' }])}>
        + Add gate
      </button>
    </fieldset>
  );
}

/** How many lines a command's field needs to show it whole (it wraps; ~64 characters a line at the narrowest). */
export function commandRows(command: string): number {
  return Math.min(8, Math.max(1, Math.ceil(command.length / 64)));
}

/** The gates New task cannot start with: a row whose command is empty (its name, or its number when it has none). */
export function emptyGates(rows: GateRow[]): string[] {
  return rows.flatMap((r, i) => (r.command.trim() ? [] : [r.name.trim() || String(i + 1)]));
}

export function gatesRecord(rows: GateRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.name.trim() && r.command.trim()) out[r.name.trim()] = r.command.trim();
  return out;
}
