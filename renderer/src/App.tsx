// The app shell: sidebar, banners, the current screen by hash route, and the resume dialog when one is open.
import { useEffect, useState } from 'react';
import { shortcutFor, typingIn } from './lib/shortcuts';
import { runMenuCommand } from './stores/menu-commands';
import { titleWithCount } from '../../shared/run-groups';
import { useNeedsYou } from './lib/needs-you';
import { boot } from './boot';
import { hrefs, navigate } from './lib/route';
import { useRuns } from './stores/runs';
import { useUi } from './stores/ui';
import { ConnectionBanner, Notices, SandboxBanner } from './components/Banners';
import { HoldBanner } from './components/HoldBanner';
import { ResumeDialog } from './components/ResumeDialog';
import { ShortcutSheet } from './components/ShortcutSheet';
import { Sidebar } from './components/Sidebar';
import { Empty } from './components/States';
import { lazyScreen } from './components/LazyScreen';
import { HomeScreen } from './screens/HomeScreen';
import { NewTaskScreen } from './screens/NewTaskScreen';
import { RunScreen } from './screens/RunScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { TeamRunScreen } from './screens/TeamRunScreen';

// The dashboard pulls in recharts and d3: its own chunk, fetched the first time it is opened.
const DashboardScreen = lazyScreen(() => import('./screens/DashboardScreen').then((m) => m.DashboardScreen), 'Loading the dashboard…');

/** "/": the runs list's filter, from any screen (Home is opened first; the field is there a frame later). */
function focusRunsFilter(): void {
  if (useUi.getState().route.name !== 'home') navigate(hrefs.home());
  let tries = 0;
  const focus = () => {
    const field = document.getElementById('runs-filter');
    if (field) field.focus();
    else if (tries++ < 30) requestAnimationFrame(focus);
  };
  requestAnimationFrame(focus);
}

export function App() {
  useEffect(() => boot(), []);
  const route = useUi((s) => s.route);
  const demo = useUi((s) => s.appInfo?.demo ?? false);
  const resumeRunId = useUi((s) => s.resumeRunId);
  const closeResume = useUi((s) => s.closeResume);
  const interrupted = useRuns((s) => s.interrupted.data);
  // "(2) Ratchet": how many runs wait for the user, on the window title (and, in Electron, the dock badge).
  // The same runs as the runs list's and the dashboard's Needs you, team runs too (issue 34 item 2).
  const needYou = useNeedsYou().runs.length;
  useEffect(() => {
    document.title = titleWithCount('Ratchet', needYou);
  }, [needYou]);
  // Keyboard shortcuts in the page: the browser host's stand-ins for the menu, "/" to filter the runs, "?" the sheet of keys.
  const host = useUi((s) => s.appInfo?.host ?? 'electron');
  const [sheet, setSheet] = useState(false);
  useEffect(() => {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = shortcutFor(e, { host, mac, inField: typingIn(e.target) });
      if (!target) return;
      e.preventDefault();
      if (target === 'filter') focusRunsFilter();
      else if (target === 'help') setSheet(true);
      else void runMenuCommand(target);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [host]);

  return (
    <div className="app">
      <Sidebar route={route} demo={demo} />
      <main className="main" id="main">
        <ConnectionBanner />
        <SandboxBanner />
        <HoldBanner />
        <Notices />
        {route.name === 'home' && <HomeScreen />}
        {route.name === 'new' && <NewTaskScreen repoPath={route.repo} />}
        {route.name === 'run' && <RunScreen key={route.runId} runId={route.runId} step={route.step} />}
        {route.name === 'team-run' && <TeamRunScreen key={route.runId} runId={route.runId} step={route.step} />}
        {route.name === 'dashboard' && <DashboardScreen />}
        {route.name === 'settings' && <SettingsScreen />}
        {route.name === 'not-found' && (
          <div className="screen">
            <Empty title="Nothing here">
              <a href={hrefs.home()}>Back to the runs</a>
            </Empty>
          </div>
        )}
      </main>
      {sheet && <ShortcutSheet onClose={() => setSheet(false)} />}
      {resumeRunId && (
        <ResumeDialog
          runId={resumeRunId}
          others={interrupted}
          onClose={closeResume}
          onResumed={(id) => {
            closeResume();
            void useRuns.getState().loadInterrupted();
            navigate(hrefs.run(id));
          }}
        />
      )}
    </div>
  );
}
