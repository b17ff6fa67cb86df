// Settings › Notifications: one field per notification channel (shared/notify-channels/), each checked with its channel's schema.
import { Fragment, type ReactNode } from 'react';
import type { Settings } from '../../../shared/contract';
import { NOTIFY_CHANNELS } from '../../../shared/notify-channels';

/** What the user typed, per channel. */
export type NotifyFields = Record<string, string>;

export const notifyFields = (n: Settings['notify']): NotifyFields =>
  Object.fromEntries(NOTIFY_CHANNELS.map(({ name }) => [name, (n as Record<string, string | null | undefined>)[name] ?? '']));

/** What Settings saves: an empty field is no target. */
export const notifyValue = (f: NotifyFields): Settings['notify'] =>
  Object.fromEntries(NOTIFY_CHANNELS.map(({ name }) => [name, f[name]?.trim() || null])) as Settings['notify'];

/** A channel's help, its `backticked` parts as code. */
function helpText(help: string): ReactNode {
  return help.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}

export function NotifySettingsSection({ value, onChange }: { value: NotifyFields; onChange(v: NotifyFields): void }) {
  return (
    <section className="card settings-section" aria-labelledby="h-notify">
      <h2 id="h-notify">Notifications to your phone or a service</h2>
      {NOTIFY_CHANNELS.map(({ name, target, field }) => {
        // The problem in the contract's words (null: fine); Save refuses it through the settings schema (settings-form.ts).
        const problem = target.safeParse(value[name]?.trim() || null).error?.issues[0]?.message ?? null;
        return (
          <Fragment key={name}>
            <label className="field">
              {field.label}
              <input
                className="mono"
                value={value[name] ?? ''}
                placeholder={field.placeholder}
                spellCheck={false}
                aria-invalid={problem !== null}
                onChange={(e) => onChange({ ...value, [name]: e.target.value })}
              />
            </label>
            {problem && (
              <p role="alert" className="small-text tone-bad">
                {problem}
              </p>
            )}
            <p className="muted small-text">{helpText(field.help)}</p>
          </Fragment>
        );
      })}
      <p className="muted small-text">
        A workflow’s own <code>notify:</code> replaces these for its runs. A notification that cannot be delivered is written to the run’s events; it never
        fails or holds up a run.
      </p>
    </section>
  );
}
