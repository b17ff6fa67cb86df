import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-policy';

describe('content security policy', () => {
  it("renderer/index.html's <meta> fallback carries the same policy as the hosts' header (frame-ancestors cannot live in a meta)", () => {
    const html = readFileSync(join(import.meta.dirname, '..', '..', 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    const header = CONTENT_SECURITY_POLICY.split('; ')
      .filter((d) => !d.startsWith('frame-ancestors'))
      .sort();
    expect(meta?.split('; ').sort()).toEqual(header);
  });
});
