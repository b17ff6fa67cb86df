// The navigation sidebar: Home, New task, Dashboard, Settings, with the current route marked.
import { hrefs, type Route } from '../lib/route';
import { Icon } from './Icon';

const ITEMS: Array<{ href: string; label: string; match: Route['name'][] }> = [
  { href: hrefs.home(), label: 'Runs', match: ['home', 'run'] },
  { href: hrefs.newTask(), label: 'New task', match: ['new'] },
  { href: hrefs.dashboard(), label: 'Dashboard', match: ['dashboard'] },
  { href: hrefs.settings(), label: 'Settings', match: ['settings'] },
];

export function Sidebar({ route, demo }: { route: Route; demo: boolean }) {
  return (
    <nav className="sidebar" aria-label="main">
      <div className="brand">
        <span className="brand-mark"><Icon name="brand" /></span> Ratchet
      </div>
      {demo && <div className="demo-label" title="app.info says demo: the agent is scripted, no API key is used">DEMO — scripted agent</div>}
      <ul>
        {ITEMS.map((it) => (
          <li key={it.href}>
            <a href={it.href} aria-current={it.match.includes(route.name) ? 'page' : undefined}>{it.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
