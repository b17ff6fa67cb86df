// Banners above every screen: the lost connection (with its reconnect countdown) and the engine's notices.
import { useEffect } from 'react';
import { groupNotices } from '../lib/notices';
import { reasonLine } from '../lib/format';
import { hrefs } from '../lib/route';
import { useSettings } from '../stores/settings';
import { useUi } from '../stores/ui';
import { Countdown } from './Countdown';
import { Icon } from './Icon';

export function ConnectionBanner() {
  const c = useUi((s) => s.connection);
  if (c.state === 'open') return null;
  return (
    <div className="banner banner-bad" role="status">
      {c.state === 'connecting' ? (
        'Connecting to Ratchet…'
      ) : (
        <>
          Disconnected from Ratchet — the screens show what was known last.{' '}
          {c.retryAt && (
            <>
              Reconnecting <Countdown until={new Date(c.retryAt).toISOString()} />
            </>
          )}
        </>
      )}
    </div>
  );
}

/**
 * The engine's notices, grouped ("3 runs failed"), one line each with a link to the run (its page has the whole
 * reason), each closable and each group at once. They sit in the page above the screen, never over it.
 */
export function Notices() {
  const notices = useUi((s) => s.notices);
  const dismiss = useUi((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <section className="notices" aria-live="polite" aria-label="notices">
      {groupNotices(notices).map((g) => (
        <div key={g.key} role="group" aria-label={g.label} className={`notice notice-${g.level}`}>
          <div className="notice-main">
            <strong>{g.label}</strong>
            <ul className="notice-items">
              {g.items.map((n) => (
                <li key={n.id} role={n.level === 'error' ? 'alert' : undefined}>
                  {n.runId ? (
                    <a href={hrefs.run(n.runId)} className="notice-subject">
                      {n.subject || 'Open the run'}
                    </a>
                  ) : (
                    n.subject && <span className="notice-subject">{n.subject}</span>
                  )}
                  {n.body && (
                    <span className="muted small-text truncate notice-body" title={reasonLine(n.body)}>
                      {reasonLine(n.body)}
                    </span>
                  )}
                  {g.items.length > 1 && (
                    <button
                      type="button"
                      className="icon-button small"
                      aria-label={`Dismiss the notice about ${n.subject || n.title}`}
                      onClick={() => dismiss(n.id)}
                    >
                      <Icon name="close" />
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label={g.items.length > 1 ? `Dismiss all ${g.items.length}` : 'Dismiss'}
            onClick={() => g.items.forEach((n) => dismiss(n.id))}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </section>
  );
}

/** Said once, loudly, above every screen: no OS sandbox on this platform (runs are refused), or the user turned it off. */
export function SandboxBanner() {
  const status = useSettings((s) => s.settings?.sandboxStatus ?? null);
  const loaded = useSettings((s) => s.status !== 'idle');
  const load = useSettings((s) => s.load);
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  if (!status || status.state === 'on') return null;
  return (
    <div className="banner banner-bad" role="alert">
      {status.state === 'unavailable' ? (
        <>No OS sandbox: runs are refused. {status.message} (Settings › Sandbox)</>
      ) : (
        <>The OS sandbox is off: the agent’s commands can write anywhere you can, read your keys and reach any host. (Settings › Sandbox)</>
      )}
    </div>
  );
}
