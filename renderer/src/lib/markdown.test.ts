// @vitest-environment jsdom
// Tests for the Markdown renderer: a report's tables and lists become HTML, nothing executable survives.
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown';

describe('markdownToHtml', () => {
  it('renders headings, emphasis, lists and tables', () => {
    const html = markdownToHtml('# Retry statistics\n\n- **Success rate:** 50.0 %\n\n| retries | steps |\n| --- | --- |\n| none needed | 2 |\n');
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelector('h1')?.textContent).toBe('Retry statistics');
    expect(doc.querySelector('li strong')?.textContent).toBe('Success rate:');
    expect([...doc.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['none needed', '2']);
  });

  it('drops scripts, event handlers and javascript: links', () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[click](javascript:alert(1))');
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });
});
