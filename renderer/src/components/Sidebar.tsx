// The navigation sidebar: Home, New task, Dashboard, Settings, with the current route marked.
import { hrefs, type Route } from '../lib/route';
import { shortcutHint, type ShortcutTarget } from '../lib/shortcuts';
import { useUi } from '../stores/ui';
import { Icon } from './Icon';

const ITEMS: Array<{ href: string; label: string; match: Route['name'][]; key: ShortcutTarget }> = [
  { href: hrefs.home(), label: 'Runs', match: ['home', 'run', 'team-run'], key: 'filter' },
  { href: hrefs.newTask(), label: 'New task', match: ['new'], key: 'newTask' },
  { href: hrefs.dashboard(), label: 'Dashboard', match: ['dashboard'], key: 'dashboard' },
  { href: hrefs.settings(), label: 'Settings', match: ['settings'], key: 'settings' },
];

export function Sidebar({ route, demo }: { route: Route; demo: boolean }) {
  const host = useUi((s) => s.appInfo?.host ?? 'electron');
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  const hint = (it: (typeof ITEMS)[number]) => {
    const k = shortcutHint(it.key, host, mac);
    return k ? `${it.label} (${it.key === 'filter' ? `${k} finds a run` : k})` : undefined;
  };
  return (
    <nav className="sidebar" aria-label="main">
      <div className="brand">
        <span className="brand-mark">
          <Icon name="brand" />
        </span>{' '}
        Ratchet
      </div>
      {demo && (
        <div className="demo-label" title="app.info says demo: the agent is scripted, no API key is used">
          DEMO — scripted agent
        </div>
      )}
      <ul>
        {ITEMS.map((it) => (
          <li key={it.href}>
            <a href={it.href} title={hint(it)} aria-current={it.match.includes(route.name) ? 'page' : undefined}>
              {it.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
