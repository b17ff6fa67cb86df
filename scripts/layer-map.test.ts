// The layer map is enforced: a deliberate violation fails lint with the map's own message, an allowed import passes, and tests may reach across.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS, zoneOf } from '../eslint-rules/layers.js';

const ROOT = join(__dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function ruleErrors(rule: string, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}
const layerErrors = (file: string, code: string) => ruleErrors('ratchet/layers', file, code);
const sqlErrors = (file: string, code: string) => ruleErrors('ratchet/store-sql', file, code);

describe('the layer map', () => {
  it('names every product zone, and each zone only below it', () => {
    expect(zoneOf('electron/engine/runs/step-machine.ts')).toBe('electron/engine');
    expect(zoneOf('electron/main/index.ts')).toBe('electron/main');
    expect(zoneOf('scripts/demo.ts')).toBeNull();
    expect(LAYERS.shared).toEqual([]);
    expect(LAYERS['electron/engine']).toEqual(['shared']);
  });

  it('fails lint on a deliberate violation: the engine importing the CLI, shared importing the engine', async () => {
    expect(await layerErrors('electron/engine/runs/violation.ts', "import { runCli } from '../../cli/main';\nexport const x = runCli;\n")).toEqual([
      'Bad layering: electron/engine/ may import only shared/; this imports electron/cli/ (the layer map: docs/architecture.md).',
    ]);
    expect(await layerErrors('shared/violation.ts', "export { createEngine } from '../electron/engine/engine';\n")).toHaveLength(1);
    expect(await layerErrors('renderer/src/violation.ts', "const m = await import('../../electron/engine/engine');\nexport default m;\n")).toHaveLength(1);
  }, 60_000);

  it("keeps the renderer's API client to its stores: a component, screen or helper importing it fails lint", async () => {
    const call = "import { getApi } from '../api/client';\nexport const f = () => getApi().call('runs.stop', { runId: 'r' });\n";
    expect(await layerErrors('renderer/src/components/Violation.tsx', call)).toEqual([
      'Bad layering: renderer/src/components/ may not import renderer/src/api/; call a store action (renderer/src/stores/) instead (the layer map: docs/architecture.md).',
    ]);
    expect(
      await layerErrors('renderer/src/screens/Violation.tsx', "import { OFFLINE_MESSAGE } from '../api/ws-bridge';\nexport const m = OFFLINE_MESSAGE;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('renderer/src/lib/violation.ts', "export { getApi } from '../api/client';\n")).toHaveLength(1);
    expect(await layerErrors('renderer/src/stores/ok.ts', call)).toEqual([]);
    expect(await layerErrors('renderer/src/components/Violation.test.tsx', call)).toEqual([]);
  }, 60_000);

  it('passes what the map allows, and lets tests reach across it', async () => {
    expect(await layerErrors('electron/host/ok.ts', "import { createService } from '../engine/service/service';\nexport const s = createService;\n")).toEqual(
      [],
    );
    expect(await layerErrors('electron/engine/runs/violation.test.ts', "import { runCli } from '../../cli/main';\nexport const x = runCli;\n")).toEqual([]);
  }, 60_000);

  it('fails lint on SQL outside the store: better-sqlite3, a prepared statement, SQL text', async () => {
    expect(await sqlErrors('electron/engine/violation.ts', "import type Database from 'better-sqlite3';\nexport type D = Database.Database;\n")).toEqual([
      'SQL only in the store: better-sqlite3 belongs behind a named query in electron/engine/store/ (the layer map: docs/architecture.md).',
    ]);
    expect(
      await sqlErrors(
        'electron/engine/runs/violation.ts',
        'export const n = (db: { prepare(s: string): unknown }) => db.prepare(`SELECT COUNT(*) FROM runs`);\n',
      ),
    ).toHaveLength(2);
    expect(await sqlErrors('electron/cli/violation.ts', "export const sql = 'UPDATE runs SET status = ? WHERE id = ?';\n")).toHaveLength(1);
  }, 60_000);

  it('lets the store, tests and plain words through', async () => {
    expect(
      await sqlErrors(
        'electron/engine/store/ok.ts',
        "import type Database from 'better-sqlite3';\nexport const q = (db: Database.Database) => db.prepare('SELECT 1 FROM runs').get();\n",
      ),
    ).toEqual([]);
    expect(
      await sqlErrors(
        'electron/engine/ok.test.ts',
        "import Database from 'better-sqlite3';\nexport const q = new Database(':memory:').prepare('SELECT 1 FROM runs');\n",
      ),
    ).toEqual([]);
    expect(
      await sqlErrors('electron/engine/ok.ts', "export const m = /^a (b)$/.exec('a b');\nexport const t = 'Select the files from the list to update.';\n"),
    ).toEqual([]);
  }, 60_000);
});
