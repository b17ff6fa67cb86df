// The workflow's `notify:` key is validated like the rest of the file: a bad value names the field, its line and what to write instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_TARGETS } from '../../../shared/notify';
import { progressLine } from '../../cli/progress';
import { tempDir } from '../testing/temp-repo';
import { loadSettings } from '../settings/settings-store';
import { loadWorkflowFile, parseWorkflow } from '../workflow/load-workflow';

const wf = (notify: string) => `gates: { test: "true" }\nnotify:\n  ${notify}\nsteps:\n  - title: a\n`;

describe('workflow notify:', () => {
  it('accepts an ntfy topic URL and a webhook URL, and null for none', () => {
    const r = parseWorkflow(`notify: { ntfy: "https://ntfy.example.com/my-runs", webhook: null }\nsteps:\n  - title: a\n`);
    expect(r.ok && r.workflow.notify).toEqual({ ntfy: 'https://ntfy.example.com/my-runs', webhook: null });
  });

  it('refuses a URL that is not one, naming the field, its line and an example', () => {
    const r = parseWorkflow(wf('ntfy: ntfy.example.com/my-runs'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      { line: 3, path: 'notify.ntfy', message: 'the ntfy topic URL must be a full http:// or https:// URL, e.g. https://ntfy.example.com/my-ratchet-runs' },
    ]);
    const file = join(tempDir('ratchet-wf-'), 'ratchet.yml');
    writeFileSync(file, wf('webhook: "ftp://hooks.example.com/x"'));
    expect(() => loadWorkflowFile(file)).toThrow(
      `${file}:3: notify.webhook: the webhook URL must be a full http:// or https:// URL, e.g. https://hooks.example.com/ratchet\nFix these lines and run again.`,
    );
  });

  it('refuses an ntfy server without a topic, a number, and an unknown key', () => {
    const problems = (n: string) => {
      const r = parseWorkflow(wf(n));
      return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
    };
    expect(problems('ntfy: "https://ntfy.example.com/"')).toEqual([
      'notify.ntfy: the ntfy URL names its topic after the server, e.g. https://ntfy.example.com/my-ratchet-runs',
    ]);
    expect(problems('ntfy: 42')).toEqual([
      'notify.ntfy: the ntfy topic URL is a URL in quotes, e.g. "https://ntfy.example.com/my-ratchet-runs" (or null for none)',
    ]);
    expect(problems('slack: "https://hooks.example.com/x"')).toEqual(['notify: unknown key `slack`']);
  });
});

describe('settings notify', () => {
  it('defaults to no targets and reads the ones in settings.json', () => {
    const home = tempDir('ratchet-home-');
    expect(loadSettings(home).notify).toEqual(NO_TARGETS);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ notify: { webhook: 'https://hooks.example.com/r' } }));
    expect(loadSettings(home).notify).toEqual({ ...NO_TARGETS, webhook: 'https://hooks.example.com/r' });
  });
});

describe('the CLI', () => {
  it('prints an undelivered notification on its progress stream (stderr), nothing for a delivered one', () => {
    const e = (type: string, payload: Record<string, unknown>) => ({ id: 1, runId: 'r', at: '', type, payload });
    expect(
      progressLine(e('notify.failed', { event: 'run.failed', target: 'ntfy', url: 'https://ntfy.example.com/…', tries: 3, reason: 'ECONNREFUSED' }), 1),
    ).toBe('  ! ntfy notification (run.failed) to https://ntfy.example.com/… not delivered after 3 tries: ECONNREFUSED');
    expect(progressLine(e('notify.sent', { event: 'run.failed', target: 'ntfy', url: 'x', tries: 1 }), 1)).toBeNull();
  });
});
