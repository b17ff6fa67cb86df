// Banners above every screen: the lost connection (with its reconnect countdown) and the engine's notices.
import { useEffect } from 'react';
import { useSettings } from '../stores/settings';
import { useUi } from '../stores/ui';
import { Countdown } from './Countdown';
import { Icon } from './Icon';

export function ConnectionBanner() {
  const c = useUi((s) => s.connection);
  if (c.state === 'open') return null;
  return (
    <div className="banner banner-bad" role="status">
      {c.state === 'connecting' ? 'Connecting to Ratchet…' : (
        <>
          Disconnected from Ratchet — the screens show what was known last.{' '}
          {c.retryAt && <>Reconnecting <Countdown until={new Date(c.retryAt).toISOString()} /></>}
        </>
      )}
    </div>
  );
}

export function Notices() {
  const notices = useUi((s) => s.notices);
  const dismiss = useUi((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <div>
            <strong>{n.title}</strong>
            <div>{n.body}</div>
            {n.runId && <a href={`#/runs/${encodeURIComponent(n.runId)}`}>Open the run</a>}
          </div>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(n.id)}><Icon name="close" /></button>
        </div>
      ))}
    </div>
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
      {status.state === 'unavailable'
        ? <>No OS sandbox: runs are refused. {status.message} (Settings › Sandbox)</>
        : <>The OS sandbox is off: the agent’s commands can write anywhere you can, read your keys and reach any host. (Settings › Sandbox)</>}
    </div>
  );
}
