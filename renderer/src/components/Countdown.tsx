// A live countdown to a moment (a waiting run's wake-up, a retry's backoff), ticking every second.
import { countdown } from '../lib/format';
import { useNow } from '../lib/use-now';

export function Countdown({ until, prefix = 'in ', done = 'any moment' }: { until: string; prefix?: string; done?: string }) {
  const target = Date.parse(until);
  const now = useNow(1000, Number.isFinite(target));
  if (!Number.isFinite(target)) return null;
  const left = target - now;
  return (
    <time className="countdown" dateTime={until} title={new Date(target).toLocaleString()}>
      {left <= 0 ? done : `${prefix}${countdown(left)}`}
    </time>
  );
}
