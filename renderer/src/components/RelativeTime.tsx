// A timestamp as people read it ("3 min ago"), with the exact local time on hover and in the machine-readable dateTime.
import { ago, exactTime } from '../lib/format';

export function RelativeTime({ at, now }: { at: string; now?: number }) {
  return (
    <time dateTime={at} title={exactTime(at)}>
      {ago(at, now)}
    </time>
  );
}
