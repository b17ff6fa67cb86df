// How each notification channel sends: the HTTP request for a notice, one per channel of shared/notify-channels/
// (the type makes a channel without its sender a compile error).
import type { NotifyTarget } from '../../../../shared/notify';
import type { HttpRequest } from '../deliver';
import type { Notice } from '../messages';
import { ntfyRequest } from './ntfy';
import { webhookRequest } from './webhook';

/** Builds the request that delivers `notice` to the target `url`; delivery itself (timeouts, retries) is deliver.ts's. */
export type ChannelSender = (url: string, notice: Notice) => HttpRequest;

export const CHANNEL_SENDERS: { [K in NotifyTarget]: ChannelSender } = { ntfy: ntfyRequest, webhook: webhookRequest };
