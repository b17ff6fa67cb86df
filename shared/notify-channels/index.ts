// The notification channels, in the order they are sent and shown. A new channel: its record here and its sender in
// electron/engine/notify/channels/ (see docs/architecture.md, "Adding a notification channel").
import { ntfy } from './ntfy';
import { webhook } from './webhook';

export type { NotifyChannel } from './channel';

export const NOTIFY_CHANNELS = [ntfy, webhook] as const;
