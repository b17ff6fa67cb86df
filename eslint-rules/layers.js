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
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
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
      const to = zoneOf(toRel);
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
