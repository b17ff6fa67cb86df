// The ntfy channel's shareable half: a topic URL (its path names the topic), how Ratchet names it, its Settings field.
import { isHttpUrl, targetUrl, type NotifyChannel } from './channel';

export const NtfyUrl = targetUrl('the ntfy topic URL', 'https://ntfy.example.com/my-ratchet-runs').refine(
  (u) => u === null || !isHttpUrl(u) || new URL(u).pathname.replace(/\/+$/, '') !== '',
  'the ntfy URL names its topic after the server, e.g. https://ntfy.example.com/my-ratchet-runs',
);

export const ntfy: NotifyChannel<'ntfy'> = {
  name: 'ntfy',
  target: NtfyUrl,
  to: 'ntfy',
  field: {
    label: 'ntfy topic URL',
    placeholder: 'none — e.g. https://ntfy.example.com/my-ratchet-runs',
    help:
      'A short message with a title, sent to this topic when a run fails after its retries (high priority), succeeds (also a step that needed a retry), ' +
      'crosses its budget alert, or needs you. Subscribe to the topic in the ntfy app; anyone who knows the topic can read it, so pick a name that is hard to guess.',
    invalid: 'Give a valid ntfy topic URL, or leave it empty.',
  },
};
