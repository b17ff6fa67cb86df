// Markdown to safe HTML for documents the app shows (the weekly report): marked renders GitHub-flavoured Markdown, DOMPurify removes anything executable.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** The document's HTML: tables and lists rendered, scripts, event handlers and javascript: links removed. */
export function markdownToHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
