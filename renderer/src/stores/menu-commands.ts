// Carries out the menu's commands (app.onCommand) in the window: one handler per command in shared/menu-commands.ts.
import type { MenuCommand } from '../../../shared/menu-commands';
import { MENU_COMMAND_SPECS } from '../../../shared/menu-commands';
import { errorMessage, getApi } from '../api/client';
import { currentScreen, focusScreen } from '../lib/focus-screen';
import { hrefs, navigate } from '../lib/route';
import { useRunDetail } from './run-detail';
import { useUi } from './ui';

/** The run on screen, which Retry, Resume and Stop act on. */
function shownRun(): string | null {
  const route = useUi.getState().route;
  return route.name === 'run' ? route.runId : null;
}

function onRun(command: MenuCommand, act: (runId: string) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const runId = shownRun();
    const label = MENU_COMMAND_SPECS[command].label.replace(/…$/, '');
    if (!runId) {
      useUi.getState().notify({
        code: 'command.no_run',
        level: 'info',
        title: `${label}: no run open`,
        body: `Open a run from the Runs list first; ${label} acts on the run on screen.`,
        runId: null,
      });
      return;
    }
    try {
      await act(runId);
    } catch (err) {
      useUi.getState().notify({ code: 'command.failed', level: 'error', title: `${label} did not work`, body: errorMessage(err), runId });
    }
  };
}

/** Every command has a handler: the type makes a command added to the list without one a compile error. */
const handlers: Record<MenuCommand, () => Promise<void> | void> = {
  // New task asks which repository, as the sidebar's New task does: one behaviour, whatever opened it (issue 34 item 7).
  newTask: () => navigate(hrefs.newTask()),
  openRepo: async () => {
    // A browser has no native folder dialog: the host's folder browser, opened over New task's chooser.
    if (useUi.getState().appInfo?.host === 'headless') {
      useUi.getState().requestRepoPicker();
      navigate(hrefs.newTask());
      return;
    }
    try {
      const { path } = await getApi().call('repos.pick', {});
      if (path) navigate(hrefs.newTask(path));
    } catch (err) {
      useUi.getState().notify({ code: 'repo.open_failed', level: 'error', title: 'Could not open the repository', body: errorMessage(err), runId: null });
    }
  },
  retry: onRun('retry', (runId) => useRunDetail.getState().retry(runId)),
  resume: onRun('resume', (runId) => useUi.getState().openResume(runId)),
  stop: onRun('stop', (runId) => useRunDetail.getState().stop(runId)),
  dashboard: () => navigate(hrefs.dashboard()),
  settings: () => navigate(hrefs.settings()),
};

/** The commands that open a screen: after them the keyboard starts from that screen's first field. */
const OPENS_SCREEN: ReadonlySet<MenuCommand> = new Set(['newTask', 'openRepo', 'dashboard', 'settings']);

export async function runMenuCommand(command: MenuCommand): Promise<void> {
  const leaving = currentScreen();
  const hash = location.hash;
  await handlers[command]();
  if (OPENS_SCREEN.has(command)) focusScreen(location.hash !== hash ? leaving : null);
}
