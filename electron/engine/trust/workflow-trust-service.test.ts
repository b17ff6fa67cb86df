// Workspace trust in the app: workflow.load lists the repository file's commands and trust; runs.start needs the Trust answer once per content.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../shared/contract';
import { createEngine } from '../engine';
import { createService, toCallError, type Service } from '../service/service';
import { makeRepo, tempDir } from '../testing/temp-repo';

let service: Service | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const call = (s: Service, method: string, input: unknown) => dispatch(s.handlers, method, input, toCallError);

describe('workspace trust (app)', () => {
  it('shows the commands, refuses to start untrusted, starts after Trust and remembers it', async () => {
    const marker = join(tempDir(), 'ran');
    const yml = `agent: { kind: command, command: [sh, -c, "touch ${marker}"] }\ngates:\n  ok: { run: "true", restart: "echo restart" }\nsteps:\n  - title: One\n`;
    const repo = makeRepo({ 'ratchet.yml': yml });
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    service = createService(createEngine({ home: tempDir(), env }), { host: 'headless', version: '0.1.0', env });
    const loaded = (await call(service, 'workflow.load', { repo })) as {
      ok: true;
      value: { file: string; trust: { trusted: boolean; commands: Array<{ source: string; command: string }> } };
    };
    expect(loaded.value.trust.trusted).toBe(false);
    expect(loaded.value.trust.commands.map((c) => c.source)).toEqual(['gate ok', 'gate ok restart', 'agent']);
    const file = loaded.value.file;
    expect(await call(service, 'runs.start', { repo, title: 't', workflowFile: file })).toMatchObject({ ok: false, error: { code: 'workflow_untrusted' } });
    expect(existsSync(marker)).toBe(false);
    expect(await call(service, 'runs.start', { repo, title: 't', workflowFile: file, trust: true })).toMatchObject({ ok: true });
    expect(await call(service, 'workflow.load', { repo })).toMatchObject({ ok: true, value: { trust: { trusted: true } } });
    // Revoke trust (the New task screen's button): the file asks again.
    expect(await call(service, 'trust.revoke', { repo })).toMatchObject({ ok: true, value: { revoked: 1 } });
    expect(await call(service, 'workflow.load', { repo })).toMatchObject({ ok: true, value: { trust: { trusted: false } } });
    expect(await call(service, 'runs.start', { repo, title: 't', workflowFile: file })).toMatchObject({ ok: false, error: { code: 'workflow_untrusted' } });
  });

  it('binds Trust to the content shown: a file changed after workflow.load is refused at runs.start, runs nothing and is not trusted', async () => {
    const shownMarker = join(tempDir(), 'shown');
    const swappedMarker = join(tempDir(), 'swapped');
    const yml = (marker: string) =>
      `agent: { kind: command, command: [sh, -c, "touch ${marker}"] }\ngates:\n  ok: "true"\nsandbox: { env: [GITHUB_TOKEN] }\nsteps:\n  - title: One\n`;
    const repo = makeRepo({ 'ratchet.yml': yml(shownMarker) });
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    service = createService(createEngine({ home: tempDir(), env }), { host: 'headless', version: '0.1.0', env });
    type Loaded = {
      ok: true;
      value: { file: string; trust: { trusted: boolean; sha256: string; commands: Array<{ source: string; command: string; warning?: string }> } };
    };
    const loaded = (await call(service, 'workflow.load', { repo })) as Loaded;
    expect(loaded.value.trust.commands).toContainEqual(
      expect.objectContaining({ source: 'sandbox.env', command: 'GITHUB_TOKEN', warning: expect.stringContaining('secret') }),
    );
    // The file changes while the prompt is on screen; the user presses Trust for what they read.
    writeFileSync(loaded.value.file, yml(swappedMarker));
    const started = await call(service, 'runs.start', {
      repo,
      title: 't',
      workflowFile: loaded.value.file,
      trust: true,
      trustSha256: loaded.value.trust.sha256,
    });
    expect(started).toMatchObject({ ok: false, error: { code: 'workflow_untrusted', message: expect.stringContaining('changed after it was shown') } });
    expect(existsSync(swappedMarker)).toBe(false);
    expect(existsSync(shownMarker)).toBe(false);
    const now = (await call(service, 'workflow.load', { repo })) as Loaded;
    expect(now.value.trust.trusted).toBe(false);
    expect(now.value.trust.sha256).not.toBe(loaded.value.trust.sha256);
  });
});
