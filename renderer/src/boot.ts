// Starts the renderer's wiring once: events into the stores, connection state, hash routing, first loads, the start-up resume offer.
import { getApi, onConnection, stripTokenFromUrl } from './api/client';
import { connectEvents, resync } from './stores/engine-events';
import { useRuns } from './stores/runs';
import { useUi } from './stores/ui';

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
  void runs.loadInterrupted().then(() => {
    // Interrupted runs are offered for resume once, at start-up (seed 003); the Home banner keeps the offer open.
    const { interrupted } = useRuns.getState();
    const state = useUi.getState();
    const first = interrupted.data[0];
    if (first && !state.resumeOffered) state.openResume(first.id);
    else state.markResumeOffered();
  });

  return () => {
    offEvents();
    offConn();
    window.removeEventListener('hashchange', onHash);
  };
}
