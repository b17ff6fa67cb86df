// The shared rate-limit hold, above every screen: a 429 with retry-after on one run holds every run using the same API key.
import { useEffect } from 'react';
import type { RunQueueDoc } from '../../../shared/contract';
import { hrefs } from '../lib/route';
import { useNow } from '../lib/use-now';
import { useQueue } from '../stores/queue';
import { useRuns } from '../stores/runs';
import { Countdown } from './Countdown';

const NONE: RunQueueDoc['holds'] = [];

export function HoldBanner() {
  const holds = useQueue((s) => s.doc?.holds ?? NONE);
  const loaded = useQueue((s) => s.doc !== null || s.error !== null);
  const load = useQueue((s) => s.load);
  const runs = useRuns((s) => s.runs.data);
  const latest = holds.reduce<number>((m, h) => Math.max(m, Date.parse(h.until)), 0);
  // Ticks only while a hold is in force, so the banner leaves on its own when the hold ends.
  const now = useNow(1000, latest > Date.now());
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  const active = holds.filter((h) => Date.parse(h.until) > now);
  if (active.length === 0) return null;
  const waiting = runs.filter((r) => r.status === 'waiting').length;
  return (
    <div className="banner banner-attention" role="status" aria-label="rate limit hold">
      {active.map((h, i) => {
        const run = h.runId ? runs.find((r) => r.id === h.runId) : undefined;
        return (
          <div key={i}>
            <strong>The API key is rate-limited.</strong> Every run using it waits until{' '}
            <time dateTime={h.until} title={new Date(h.until).toLocaleString()}>
              {new Date(h.until).toLocaleTimeString()}
            </time>{' '}
            (<Countdown until={h.until} done="now" />
            {waiting > 0 ? `; ${waiting} ${waiting === 1 ? 'run waits' : 'runs wait'}` : ''}).{' '}
            {h.runId ? (
              <>
                The limit came from <a href={hrefs.run(h.runId)}>{run?.title ?? `run ${h.runId}`}</a>: {h.reason}.
              </>
            ) : (
              <>The limit came from a run in another process: {h.reason}.</>
            )}{' '}
            “Retry now” on a waiting run goes ahead anyway.
          </div>
        );
      })}
    </div>
  );
}
