// Settings › Notifications: the ntfy topic URL and the webhook URL every run notifies (validated with the contract's schemas).
import type { Settings } from '../../../shared/contract';
import { NtfyUrl, WebhookUrl } from '../../../shared/notify';

export interface NotifyFields {
  ntfy: string;
  webhook: string;
}

export const notifyFields = (n: Settings['notify']): NotifyFields => ({ ntfy: n.ntfy ?? '', webhook: n.webhook ?? '' });

/** What Settings saves: an empty field is no target. */
export const notifyValue = (f: NotifyFields): Settings['notify'] => ({ ntfy: f.ntfy.trim() || null, webhook: f.webhook.trim() || null });

/** Each field's problem, in the contract's words (null: fine); Save refuses them through the settings schema (settings-form.ts). */
function fieldProblems(f: NotifyFields): { ntfy: string | null; webhook: string | null } {
  const v = notifyValue(f);
  return {
    ntfy: NtfyUrl.safeParse(v.ntfy).error?.issues[0]?.message ?? null,
    webhook: WebhookUrl.safeParse(v.webhook).error?.issues[0]?.message ?? null,
  };
}

export function NotifySettingsSection({ value, onChange }: { value: NotifyFields; onChange(v: NotifyFields): void }) {
  const problems = fieldProblems(value);
  return (
    <section className="card settings-section" aria-labelledby="h-notify">
      <h2 id="h-notify">Notifications to your phone or a service</h2>
      <label className="field">
        ntfy topic URL
        <input
          className="mono"
          value={value.ntfy}
          placeholder="none — e.g. https://ntfy.example.com/my-ratchet-runs"
          spellCheck={false}
          aria-invalid={problems.ntfy !== null}
          onChange={(e) => onChange({ ...value, ntfy: e.target.value })}
        />
      </label>
      {problems.ntfy && (
        <p role="alert" className="small-text tone-bad">
          {problems.ntfy}
        </p>
      )}
      <p className="muted small-text">
        A short message with a title, sent to this topic when a run fails after its retries (high priority), succeeds (also a step that needed a retry), crosses
        its budget alert, or needs you. Subscribe to the topic in the ntfy app; anyone who knows the topic can read it, so pick a name that is hard to guess.
      </p>
      <label className="field">
        Webhook URL
        <input
          className="mono"
          value={value.webhook}
          placeholder="none — e.g. https://hooks.example.com/ratchet"
          spellCheck={false}
          aria-invalid={problems.webhook !== null}
          onChange={(e) => onChange({ ...value, webhook: e.target.value })}
        />
      </label>
      {problems.webhook && (
        <p role="alert" className="small-text tone-bad">
          {problems.webhook}
        </p>
      )}
      <p className="muted small-text">
        The same events as JSON: <code>{'{ event, runId, task, repo, status, step, attempts, maxAttempts, costUsd, message }'}</code>. A workflow’s own{' '}
        <code>notify:</code> replaces these for its runs. A notification that cannot be delivered is written to the run’s events; it never fails or holds up a
        run.
      </p>
    </section>
  );
}
