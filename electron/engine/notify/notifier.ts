// Sends notices to the configured targets without ever holding a run up: each delivery runs on its own; flush() waits for them, bounded.
import type { NotifyTarget, NotifyTargets } from '../../../shared/notify';
import { NOTIFY_CHANNELS } from '../../../shared/notify-channels';
import { CHANNEL_SENDERS } from './channels';
import { DEFAULT_TUNING, deliver, redactUrl, type Delivery, type DeliveryTuning, type HttpRequest } from './deliver';
import type { Notice } from './messages';

export type Targets = NotifyTargets;

/** What became of one delivery (written to the run's events as notify.sent / notify.failed). */
export interface DeliveryReport {
  event: Notice['event'];
  target: NotifyTarget;
  /** Redacted: scheme and host only. */
  url: string;
  result: Delivery;
}

export interface NotifierOptions {
  targets: Targets;
  report(r: DeliveryReport): void;
  tuning?: Partial<DeliveryTuning>;
  fetch?: typeof fetch;
}

export interface Notifier {
  /** Starts delivering `notice` to every target and returns at once; it never throws. */
  send(notice: Notice): void;
  /** Waits for deliveries in flight, at most `maxMs`; the ones still going are then abandoned and reported as failed. */
  flush(maxMs: number): Promise<void>;
  readonly active: boolean;
}

/** The workflow's `notify:` over the user's Settings, key by key (a key the workflow sets, even to null, wins). */
export function resolveTargets(workflow: Partial<Targets> | undefined, settings: Partial<Targets> | undefined): Targets {
  const pick = (name: NotifyTarget) => (workflow?.[name] !== undefined ? workflow[name] : (settings?.[name] ?? null));
  return Object.fromEntries(NOTIFY_CHANNELS.map(({ name }) => [name, pick(name)])) as Targets;
}

export function createNotifier(opts: NotifierOptions): Notifier {
  const tuning: DeliveryTuning = { ...DEFAULT_TUNING, ...opts.tuning };
  const stop = new AbortController();
  const pending = new Set<Promise<void>>();
  const requests = (n: Notice): HttpRequest[] =>
    NOTIFY_CHANNELS.flatMap(({ name }) => {
      const url = opts.targets[name];
      return url ? [CHANNEL_SENDERS[name](url, n)] : [];
    });
  const report = (r: DeliveryReport) => {
    try {
      opts.report(r);
    } catch {
      // The store may be closed already; a lost report must not disturb anything else.
    }
  };
  return {
    get active() {
      return NOTIFY_CHANNELS.some(({ name }) => Boolean(opts.targets[name]));
    },
    send(notice) {
      let reqs: HttpRequest[];
      try {
        reqs = requests(notice);
      } catch {
        return;
      }
      for (const req of reqs) {
        const p: Promise<void> = deliver(req, stop.signal, tuning, opts.fetch)
          .catch((err: unknown): Delivery => ({ ok: false, tries: 0, reason: String(err) }))
          .then((result) => report({ event: notice.event, target: req.target, url: redactUrl(req.url), result }))
          .finally(() => pending.delete(p));
        pending.add(p);
      }
    },
    async flush(maxMs) {
      if (!pending.size) return;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxMs);
      });
      await Promise.race([Promise.allSettled([...pending]), bound]);
      clearTimeout(timer);
      if (!pending.size) return;
      // Out of time: abandon what is left (each reports itself as not delivered), and give them a moment to say so.
      stop.abort();
      await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 250).unref())]);
    },
  };
}
