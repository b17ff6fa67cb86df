// Starts the renderer's wiring once: events into the stores, connection state, hash routing, first loads, the start-up resume offer.
import { getApi, onConnection, stripTokenFromUrl } from './api/client';
import { connectEvents, resync } from './stores/engine-events';
import { useRuns } from './stores/runs';
import { useUi } from './stores/ui';
import { markOffered, wasOffered } from './lib/resume-offers';

/**
 * Interrupted runs are offered for resume at start-up or on arriving at Home — once per interruption,
 * remembered across reloads, and only on Home: it never opens by itself over another screen. The Home banner keeps the offer open.
 */
function offerResume(): void {
  const interrupted = useRuns.getState().interrupted.data;
  const ui = useUi.getState();
  if (ui.route.name !== 'home' || ui.resumeRunId) return;
  const first = interrupted.find((r) => !wasOffered(r));
  if (!first) return;
  ui.openResume(first.id);
  // The dialog lists every interrupted run: all of them have been offered.
  markOffered(interrupted);
}

export function boot(): () => void {
  stripTokenFromUrl();
  const api = getApi();
  const ui = useUi.getState();
  const offEvents = connectEvents(api);
  let wasDown = false;
  const offConn = onConnection((c) => {
    useUi.getState().setConnection(c);
    if (c.state !== 'open') wasDown = true;
    else if (wasDown) {
      wasDown = false;
      void resync();
    }
  });
  const onHash = () => useUi.getState().setRoute(location.hash);
  window.addEventListener('hashchange', onHash);
  onHash();

  void ui.loadAppInfo();
  const runs = useRuns.getState();
  void runs.load();
  void runs.loadInterrupted().then(offerResume);
  // Arriving at Home from another screen is the other moment to offer (the list may have changed since).
  const offRoute = useUi.subscribe((now, before) => {
    if (now.route.name === 'home' && before.route.name !== 'home') offerResume();
  });

  return () => {
    offRoute();
    offEvents();
    offConn();
    window.removeEventListener('hashchange', onHash);
  };
}
