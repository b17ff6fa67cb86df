// ntfy's sender: the sentence as a plain-text body to the topic URL, its title, priority and tags in headers.
import { headerText, withCredentials, type HttpRequest } from '../deliver';
import type { Notice } from '../messages';

export function ntfyRequest(url: string, n: Notice): HttpRequest {
  const c = withCredentials(url);
  return {
    target: 'ntfy',
    url: c.url,
    body: n.body,
    headers: { 'content-type': 'text/plain; charset=utf-8', title: headerText(n.title), priority: n.priority, tags: n.tags.join(','), ...c.headers },
  };
}
