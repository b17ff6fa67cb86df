// The layer map, enforced by lint: which top-level zone of the product may import which (in the manner of VS Code's
// layering rule). Tests, test helpers (`testing/`) and the renderer's dev fixtures may reach further; product code may not.
import path from 'node:path';

/** Zone → the other zones its product code may import from. A zone always imports itself. */
export const LAYERS = {
  shared: [],
  renderer: ['shared'],
  'electron/preload': ['shared'],
  'electron/engine': ['shared'],
  'electron/scripted': ['shared'],
  'electron/host': ['electron/engine', 'electron/scripted', 'shared'],
  'electron/cli': ['electron/engine', 'electron/host', 'shared'],
  'electron/main': ['electron/engine', 'electron/host', 'electron/cli', 'shared'],
};

const ZONES = Object.keys(LAYERS).sort((a, b) => b.length - a.length);

/**
 * Within a zone: folders that may not import another folder of it. The renderer's API client is called by its stores
 * only; components, screens and helpers call a store's action.
 */
export const WITHIN = {
  'renderer/src/components': ['renderer/src/api'],
  'renderer/src/screens': ['renderer/src/api'],
  'renderer/src/lib': ['renderer/src/api'],
};

const under = (p, folder) => p === folder || p.startsWith(`${folder}/`);
const hint = { 'renderer/src/api': 'call a store action (renderer/src/stores/) instead' };

/** The zone a repository-relative path lies in, or null (scripts, bench, e2e… are outside the map). */
export function zoneOf(rel) {
  const p = rel.split(path.sep).join('/');
  return ZONES.find((z) => p === z || p.startsWith(`${z}/`)) ?? null;
}

/**
 * Inside the engine: each folder (or root file) of `electron/engine/` has a level, lowest first. A product file may
 * import its own folder and folders of lower levels only, never one of its own level or above (VS Code's
 * code-layering rule, per folder). A new folder has to be placed here before its code passes lint.
 */
export const ENGINE = 'electron/engine';
export const ENGINE_LEVELS = [
  ['errors.ts', 'home.ts', 'fs', 'process'],
  ['workflow', 'settings'],
  ['policy'],
  ['git'],
  ['sandbox', 'project'],
  ['gates'],
  ['failures', 'prompts', 'store'],
  ['agents', 'notify', 'trust', 'worktree-env', 'stats', 'review'],
  ['run', 'estimate'],
  ['step', 'forge'],
  ['lifecycle'],
  ['engine.ts'],
  ['attempts', 'team', 'schedule'],
  ['service'],
  ['light.ts'],
  ['index.ts'],
];

/**
 * Pure code: decisions as functions of their inputs. It imports no Node built-in, no git and no store (its inputs
 * arrive as data; the adapters around it do the I/O). An entry is a folder or a file, relative to the engine.
 */
export const ENGINE_PURE = [
  'policy',
  'prompts',
  'failures/classify.ts',
  'failures/classify-api.ts',
  'failures/classify-compile.ts',
  'failures/classify-hints.ts',
  'failures/classify-network.ts',
  'failures/classify-npm.ts',
  'failures/classify-process.ts',
  'failures/classify-result.ts',
  'failures/classify-tests.ts',
  'failures/classify-toolchain.ts',
  'schedule/schedule-due.ts',
  'step/step-machine.ts',
  'step/step-state.ts',
  'step/step-kit.ts',
  'step/step-attempt.ts',
  'step/step-events.ts',
  'step/step-failure.ts',
  'step/step-tdd.ts',
  'run/run-machine.ts',
  'run/run-reasons.ts',
  'run/resume-plan.ts',
  'run/continuation.ts',
  'stats/stats.ts',
  'stats/what-if.ts',
];
const IMPURE_UNITS = ['git', 'store'];
const NODE_BUILTIN = /^(node:|(fs|path|child_process|os|crypto|http|https|net|url|stream|util|worker_threads)(\/|$))/;

const levelOf = new Map(ENGINE_LEVELS.flatMap((units, level) => units.map((u) => [u, level])));

/** The engine folder (or root file) a path relative to the engine belongs to. */
export function engineUnitOf(relToEngine) {
  return relToEngine.split('/')[0];
}
/** The level of an engine unit (index in ENGINE_LEVELS), or undefined when the map does not place it. */
export const engineLevelOf = (unit) => levelOf.get(unit);
/** Whether a file (relative to the engine) is pure code. */
export const isPure = (relToEngine) => ENGINE_PURE.some((p) => under(relToEngine, p));

/** The problem with an import from one engine file to another (both relative to the engine), or null. */
export function engineImportProblem(fromRel, toRel) {
  const from = engineUnitOf(fromRel);
  const to = engineUnitOf(/\.[cm]?[jt]sx?$/.test(toRel) ? toRel : `${toRel}.ts`);
  if (isPure(fromRel) && IMPURE_UNITS.includes(to))
    return `pure code (${fromRel}) imports no ${to}/: take what it needs as data (the engine's map: docs/architecture.md).`;
  if (from === to) return null;
  const lf = levelOf.get(from);
  const lt = levelOf.get(to);
  if (lf === undefined)
    return `electron/engine/${from} is not on the engine's map: give it a level in eslint-rules/layers.js (the engine's map: docs/architecture.md).`;
  if (lt === undefined)
    return `electron/engine/${to} is not on the engine's map: give it a level in eslint-rules/layers.js (the engine's map: docs/architecture.md).`;
  if (lt < lf) return null;
  return `Bad layering: electron/engine/${from} (level ${lf}) may import only its own folder and lower levels; ${to} is level ${lt} (the engine's map: docs/architecture.md).`;
}

/** The hosts import the engine through one file (its tests and `testing/` helpers may reach deeper). */
export const FRONT_DOOR_USERS = ['electron/cli', 'electron/host', 'electron/main'];
const FRONT_DOOR = [ENGINE, `${ENGINE}/index`, `${ENGINE}/index.ts`, `${ENGINE}/light`, `${ENGINE}/light.ts`];

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each zone imports only the zones the layer map allows (docs/architecture.md).' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = context.physicalFilename ?? context.filename;
    const fromRel = path.relative(root, file).split(path.sep).join('/');
    const from = zoneOf(fromRel);
    if (!from) return {};
    const folder = Object.keys(WITHIN).find((f) => under(fromRel, f));
    const inEngine = (rel) => rel.startsWith(`${ENGINE}/`);
    const fromEngine = inEngine(fromRel) ? fromRel.slice(ENGINE.length + 1) : null;
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (!spec.startsWith('.')) {
        if (fromEngine && isPure(fromEngine) && NODE_BUILTIN.test(spec))
          context.report({
            node,
            message: `Pure code (${fromEngine}) imports no Node built-in (${spec}): take what it needs as data (the engine's map: docs/architecture.md).`,
          });
        return;
      }
      const toRel = path
        .relative(root, path.resolve(path.dirname(file), spec))
        .split(path.sep)
        .join('/');
      const barred = folder && WITHIN[folder].find((f) => under(toRel, f));
      if (barred) {
        context.report({
          node,
          message: `Bad layering: ${folder}/ may not import ${barred}/; ${hint[barred] ?? 'see the map'} (the layer map: docs/architecture.md).`,
        });
        return;
      }
      if (fromEngine && inEngine(toRel)) {
        const problem = engineImportProblem(fromEngine, toRel.slice(ENGINE.length + 1));
        if (problem) context.report({ node, message: problem.charAt(0).toUpperCase() + problem.slice(1) });
        return;
      }
      const to = zoneOf(toRel);
      if (to === ENGINE && FRONT_DOOR_USERS.includes(from) && !FRONT_DOOR.includes(toRel)) {
        context.report({
          node,
          message: `Bad layering: ${from}/ imports the engine only through its front door, ${ENGINE}/index.ts; this reaches ${toRel} (the layer map: docs/architecture.md).`,
        });
        return;
      }
      if (!to || to === from || LAYERS[from].includes(to)) return;
      const allowed = LAYERS[from].length ? LAYERS[from].map((z) => `${z}/`).join(', ') : 'nothing outside itself';
      context.report({ node, message: `Bad layering: ${from}/ may import only ${allowed}; this imports ${to}/ (the layer map: docs/architecture.md).` });
    };
    return {
      ImportDeclaration: (n) => check(n.source, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal') check(n.arguments[0], n.arguments[0].value);
      },
    };
  },
};

/** The one folder whose product code talks SQL: everything else calls its named queries (store methods). */
export const SQL_HOME = 'electron/engine/store';

// Upper-case keywords, as this code base writes SQL: a sentence that says "select … from" is not a query.
const SQL_TEXT =
  /^\s*(?:SELECT\s[\s\S]*?\sFROM\s|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:TABLE|INDEX|TRIGGER|VIEW)\s|PRAGMA\s)/;
const DB_CALLS = new Set(['prepare', 'pragma']);

/** @type {import('eslint').Rule.RuleModule} */
export const storeSqlRule = {
  meta: {
    type: 'problem',
    docs: { description: `SQL and better-sqlite3 only in ${SQL_HOME}/ (docs/architecture.md).` },
    schema: [],
  },
  create(context) {
    const rel = path
      .relative(context.cwd, context.physicalFilename ?? context.filename)
      .split(path.sep)
      .join('/');
    if (!zoneOf(rel) || rel.startsWith(`${SQL_HOME}/`)) return {};
    const report = (node, what) =>
      context.report({ node, message: `SQL only in the store: ${what} belongs behind a named query in ${SQL_HOME}/ (the layer map: docs/architecture.md).` });
    const source = (node, spec) => spec === 'better-sqlite3' && report(node, 'better-sqlite3');
    const text = (node, value) => typeof value === 'string' && SQL_TEXT.test(value) && report(node, 'this SQL');
    return {
      ImportDeclaration: (n) => source(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && source(n.source, n.source.value),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal') source(n.arguments[0], n.arguments[0].value);
        const p = n.callee.type === 'MemberExpression' && !n.callee.computed ? n.callee.property.name : null;
        if (p && DB_CALLS.has(p)) report(n, `\`.${p}()\``);
      },
      Literal: (n) => text(n, n.value),
      TemplateLiteral: (n) => text(n, n.quasis.map((q) => q.value.cooked ?? '').join('?')),
    };
  },
};
