// The outline of a TOML file (its tables and each table's keys), which is all detection needs from pyproject.toml and Cargo.toml; not a TOML parser.

export interface TomlOutline {
  /** Table name (`project.optional-dependencies`, `tool.poetry.group.test`; '' for the top level) → its keys, in order. */
  tables: Map<string, string[]>;
}

function unquote(key: string): string {
  return key
    .replace(/^\s*"|"\s*$/g, '')
    .replace(/^\s*'|'\s*$/g, '')
    .trim();
}

/** Dotted names with quoted parts (`tool."my.tool"`) split on the dots outside quotes. */
function dotted(name: string): string {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of name) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '.') {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  parts.push(cur.trim());
  return parts.join('.');
}

/** How much a value opens (brackets/braces) minus what it closes, outside strings. */
function depthChange(value: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') break;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
  }
  return depth;
}

/**
 * Reads table headers and `key = value` lines; values spanning lines (arrays, inline tables, multi-line strings) are
 * skipped so their contents are never taken for keys. A dotted key (`a.b = 1`) is recorded under its first part.
 */
export function tomlOutline(text: string): TomlOutline {
  const tables = new Map<string, string[]>([['', []]]);
  let table = '';
  let depth = 0;
  let inString: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (inString) {
      if (line.includes(inString)) inString = null;
      continue;
    }
    if (depth > 0) {
      depth += depthChange(line);
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const header = /^\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      table = dotted(header[1] ?? '');
      if (!tables.has(table)) tables.set(table, []);
      continue;
    }
    const kv = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = unquote(dotted(kv[1] ?? '').split('.')[0] ?? '');
    tables.get(table)?.push(key);
    const value = kv[2] ?? '';
    const triple = /^("""|''')/.exec(value);
    if (triple && !value.slice(3).includes(triple[1] as string)) inString = triple[1] as string;
    else depth = Math.max(0, depthChange(value));
  }
  return { tables };
}

/** The keys of `table`, or [] when it is absent. */
export function keysOf(outline: TomlOutline, table: string): string[] {
  return outline.tables.get(table) ?? [];
}

export function hasTable(outline: TomlOutline, table: string): boolean {
  return outline.tables.has(table);
}

/** Tables under `prefix.` (e.g. `tool.poetry.group` → `test`, `dev`), first name part only. */
export function subtables(outline: TomlOutline, prefix: string): string[] {
  const names = new Set<string>();
  for (const t of outline.tables.keys()) if (t.startsWith(`${prefix}.`)) names.add(t.slice(prefix.length + 1).split('.')[0] as string);
  return [...names];
}
