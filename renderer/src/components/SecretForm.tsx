// One write-only secret field for Settings (the Anthropic key, the GitHub token, the team database's URL): the field
// always starts empty because a secret is never read back; a secret that is set can be replaced or removed; its error and
// its confirmation are said under it.
import { useEffect, useState } from 'react';

/** How long a success note ("Settings saved", "Key saved.") stays up: it has done its job once read (issue 34 item 10). */
export const SAVED_NOTE_MS = 4000;

export interface SecretFormProps {
  /** The field's accessible name, e.g. "new API key". */
  label: string;
  /** What to type, e.g. "sk-ant-…"; prefixed with how to replace it when a secret is set. */
  placeholder: string;
  replacePlaceholder: string;
  set: boolean;
  saving: boolean;
  /** The id of the error line under the form, when there is one (aria-describedby). */
  errorId: string | null;
  saveText: string;
  checkingText: string;
  removeText: string;
  /** Saves the value, or removes the secret (null); true when it was kept, so the field is emptied. */
  onSubmit(value: string | null): Promise<boolean>;
}

export function SecretForm(p: SecretFormProps) {
  const [value, setValue] = useState('');
  const submit = async (v: string | null) => {
    if (await p.onSubmit(v)) setValue('');
  };
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) void submit(value.trim());
      }}
    >
      <input
        type="password"
        className="mono"
        autoComplete="off"
        spellCheck={false}
        aria-label={p.label}
        placeholder={p.set ? p.replacePlaceholder : p.placeholder}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={Boolean(p.errorId)}
        aria-describedby={p.errorId ?? undefined}
      />
      <button type="submit" className="primary" disabled={!value.trim() || p.saving}>
        {p.saving && value.trim() ? p.checkingText : p.saveText}
      </button>
      {p.set && (
        <button type="button" className="danger-outline" disabled={p.saving} onClick={() => void submit(null)}>
          {p.removeText}
        </button>
      )}
    </form>
  );
}

/** A settings section's error (with the id its field points at) and its confirmation. */
export function FormNotices({ error, errorId, saved: said }: { error: string | null | undefined; errorId: string; saved: string | null }) {
  // A success note fades; an error stays until it is fixed.
  const [faded, setFaded] = useState<string | null>(null);
  useEffect(() => {
    setFaded(null);
    if (!said) return;
    const t = setTimeout(() => setFaded(said), SAVED_NOTE_MS);
    return () => clearTimeout(t);
  }, [said]);
  const saved = said && faded !== said ? said : null;
  return (
    <>
      {error && (
        <p id={errorId} className="inline-error" role="alert">
          {error}
        </p>
      )}
      {saved && (
        <p className="small-text tone-good" role="status">
          {saved}
        </p>
      )}
    </>
  );
}
