// New task's warning when no API key is set, with the ways out as controls: save a key here, or let Claude Code do the steps.
import { useState } from 'react';
import { useSettings } from '../stores/settings';

export function NoKeyNotice({ onUseClaudeCode }: { onUseClaudeCode: () => void }) {
  const setApiKey = useSettings((s) => s.setApiKey);
  const saving = useSettings((s) => s.saving);
  const keyError = useSettings((s) => s.keyError);
  const [key, setKey] = useState('');
  const save = async () => {
    if (await setApiKey(key.trim())) setKey('');
  };
  return (
    <section className="warning-box no-key" role="region" aria-label="no API key">
      <strong>No Anthropic API key is set</strong>
      <p className="small-text">
        The Anthropic agent cannot run a step (or draft a plan) without one. Save a key here, or run this task with Claude Code (the claude CLI, with its own
        login).
      </p>
      <div className="row">
        {/* A form inside the task's form is not allowed: Enter saves through the key handler instead. */}
        <input
          type="password"
          className="mono"
          autoComplete="off"
          spellCheck={false}
          aria-label="API key"
          placeholder="sk-ant-…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (key.trim()) void save();
            }
          }}
          aria-invalid={Boolean(keyError)}
          aria-describedby={keyError ? 'no-key-error' : undefined}
        />
        <button type="button" className="primary" disabled={!key.trim() || saving} onClick={() => void save()}>
          {saving ? 'Checking the key…' : 'Save key'}
        </button>
        <span className="muted small-text">or</span>
        <button type="button" onClick={onUseClaudeCode}>
          Use Claude Code instead
        </button>
      </div>
      {keyError && (
        <p id="no-key-error" className="inline-error" role="alert">
          {keyError}
        </p>
      )}
    </section>
  );
}
