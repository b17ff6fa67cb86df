// The layer map is enforced: a deliberate violation fails lint with the map's own message, an allowed import passes, and tests may reach across.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ENGINE_LEVELS, engineLevelOf, engineUnitOf, LAYERS, zoneOf } from '../eslint-rules/layers.js';

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
    expect(zoneOf('electron/engine/step/step-machine.ts')).toBe('electron/engine');
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

  it("holds the hosts to the engine's front door: electron/engine/index.ts, nothing deeper", async () => {
    expect(
      await layerErrors('electron/cli/violation.ts', "import { createService } from '../engine/service/service';\nexport const s = createService;\n"),
    ).toEqual([
      'Bad layering: electron/cli/ imports the engine only through its front door, electron/engine/index.ts; this reaches electron/engine/service/service (the layer map: docs/architecture.md).',
    ]);
    expect(await layerErrors('electron/main/violation.ts', "import type { Store } from '../engine/store/store';\nexport type S = Store;\n")).toHaveLength(1);
    expect(await layerErrors('electron/host/violation.ts', "export { RatchetError } from '../engine/errors';\n")).toHaveLength(1);
    expect(await layerErrors('electron/host/ok.ts', "import { createService } from '../engine';\nexport const s = createService;\n")).toEqual([]);
    expect(await layerErrors('electron/cli/ok.ts', "import { createEngine } from '../engine/index';\nexport const e = createEngine;\n")).toEqual([]);
    expect(await layerErrors('electron/cli/ok.test.ts', "import { Store } from '../engine/store/store';\nexport const s = Store;\n")).toEqual([]);
  }, 60_000);

  it('passes what the map allows, and lets tests reach across it', async () => {
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

describe("the engine's map", () => {
  it('gives every product file of the engine a level', () => {
    const engine = join(ROOT, 'electron/engine');
    const files = (dir: string): string[] =>
      readdirSync(join(engine, dir)).flatMap((n) => {
        const rel = dir ? `${dir}/${n}` : n;
        if (statSync(join(engine, rel)).isDirectory()) return n === 'testing' || n === 'node_modules' ? [] : files(rel);
        return /\.ts$/.test(n) && !n.endsWith('.test.ts') ? [rel] : [];
      });
    const all = files('');
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter((f) => engineLevelOf(engineUnitOf(f)) === undefined)).toEqual([]);
    expect(ENGINE_LEVELS.at(-1)).toEqual(['index.ts']);
  });

  it('fails lint on an import running up or across a level, and on a folder the map does not place', async () => {
    expect(await layerErrors('electron/engine/git/violation.ts', "import { runLoop } from '../lifecycle/run-loop';\nexport const x = runLoop;\n")).toEqual([
      "Bad layering: electron/engine/git (level 3) may import only its own folder and lower levels; lifecycle is level 10 (the engine's map: docs/architecture.md).",
    ]);
    // The same level is no lower: two folders of one level never import each other.
    expect(
      await layerErrors('electron/engine/store/violation.ts', "import type { Failure } from '../failures/failure';\nexport type F = Failure;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('electron/engine/gates/violation.ts', "export { engineOf } from '../engine';\n")).toHaveLength(1);
    expect(await layerErrors('electron/engine/nowhere/violation.ts', "import { git } from '../git/git-command';\nexport const g = git;\n")).toEqual([
      "Electron/engine/nowhere is not on the engine's map: give it a level in eslint-rules/layers.js (the engine's map: docs/architecture.md).",
    ]);
  }, 60_000);

  it('passes an import down the levels and within a folder, and lets tests reach up', async () => {
    expect(
      await layerErrors(
        'electron/engine/lifecycle/ok.ts',
        "import { git } from '../git/git-command';\nimport { RatchetError } from '../errors';\nexport const x = [git, RatchetError];\n",
      ),
    ).toEqual([]);
    expect(await layerErrors('electron/engine/git/ok.ts', "import { git } from './git-command';\nexport const x = git;\n")).toEqual([]);
    expect(await layerErrors('electron/engine/git/violation.test.ts', "import { runLoop } from '../lifecycle/run-loop';\nexport const x = runLoop;\n")).toEqual(
      [],
    );
  }, 60_000);

  it('keeps pure code from Node built-ins, git and the store', async () => {
    const io =
      "import { readFileSync } from 'node:fs';\nimport { git } from '../git/git-command';\nimport type { Store } from '../store/store';\nexport const x: [unknown, unknown, Store | null] = [readFileSync, git, null];\n";
    const errors = await layerErrors('electron/engine/step/step-machine.ts', io);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBe(
      "Pure code (step/step-machine.ts) imports no Node built-in (node:fs): take what it needs as data (the engine's map: docs/architecture.md).",
    );
    expect(await layerErrors('electron/engine/stats/what-if.ts', "import path from 'path';\nexport const p = path;\n")).toHaveLength(1);
    expect(await layerErrors('electron/engine/policy/policy.ts', "import type { Store } from '../store/store';\nexport type S = Store;\n")).toHaveLength(1);
    // An adapter of the same concern does I/O.
    expect(await layerErrors('electron/engine/step/step-runner.ts', io)).toEqual([]);
  }, 60_000);
});
