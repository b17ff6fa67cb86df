// GitHub's published REST description (`@octokit/openapi`) as the scripted GitHub server's judge: which operation a
// request names, and whether its parameters and body are ones the description accepts — a refusal answered as GitHub
// answers it (404 for a path or method it does not have, 400 for a body that is not JSON, 422 for a bad field).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> } | { $ref: string };
}

interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  /** Its last parameter may take slashes: tried after every route without one. */
  greedy: boolean;
  methods: Record<string, Operation>;
}

export interface MatchedOperation {
  operationId: string;
  template: string;
  method: string;
  /** The path's parameters, decoded (as text: the checks coerce integers). */
  pathParams: Record<string, string>;
  operation: Operation;
}

export interface Refusal {
  status: number;
  message: string;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The description and its compiled routes, read once per process on first use (13 MB of JSON, about half a second). */
let loaded: { description: Description; routes: Route[] } | null = null;

function described(): { description: Description; routes: Route[] } {
  if (loaded) return loaded;
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const description = JSON.parse(readFileSync(file, 'utf8')) as Description;
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(description.paths)) {
    const names: string[] = [];
    let greedy = false;
    const segments = template.split('/').map((seg, i, all) => {
      const m = /^\{([^}]+)\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1] as string);
      // A trailing {ref} or {path} may hold slashes (heads/main, src/a.ts), as GitHub reads it.
      greedy = i === all.length - 1 && /^(ref|path)$/.test(m[1] as string);
      return greedy ? '(.+)' : '([^/]+)';
    });
    const methods = Object.fromEntries(Object.entries(item).filter(([m]) => METHODS.has(m))) as Record<string, Operation>;
    routes.push({ template, pattern: new RegExp(`^${segments.join('/')}$`), names, greedy, methods });
  }
  // Literal segments first (/pulls/comments is not /pulls/{pull_number}), and a trailing {ref} that takes slashes
  // last (/commits/{ref}/check-runs is not /commits/{ref}).
  routes.sort((a, b) => Number(a.greedy) - Number(b.greedy) || a.names.length - b.names.length);
  loaded = { description, routes };
  return loaded;
}

/** The operation a method and path name in GitHub's description, or a 404 as GitHub answers an unknown route. */
export function matchOperation(method: string, path: string): MatchedOperation | Refusal {
  const { routes } = described();
  const lower = method.toLowerCase();
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const operation = route.methods[lower];
    if (!operation) continue;
    const pathParams: Record<string, string> = {};
    route.names.forEach((name, i) => (pathParams[name] = decodeURIComponent(m[i + 1] as string)));
    return { operationId: operation.operationId, template: route.template, method: lower, pathParams, operation };
  }
  return { status: 404, message: 'Not Found' };
}

function resolve<T>(value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const [, , section, name] = value.$ref.split('/');
    return described().description.components[section as string]?.[name as string] as T;
  }
  return value as T;
}

/** A schema with every `#/components/schemas/…` reference moved under `definitions`, the form zod's converter reads. */
function withDefinitions(schema: Schema): Schema {
  const components = (described().description.components.schemas ?? {}) as Record<string, Schema>;
  const definitions: Record<string, unknown> = {};
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) {
      if (k === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (!(name in definitions)) {
          definitions[name] = {}; // a placeholder first, so a recursive schema ends
          definitions[name] = rewrite(components[name] ?? {});
        }
        out.$ref = `#/definitions/${name}`;
      } else if (k !== 'example' && k !== 'examples') out[k] = rewrite(inner);
    }
    return out;
  };
  const root = rewrite(schema) as Schema;
  return Object.keys(definitions).length ? { ...root, definitions } : root;
}

const compiled = new Map<string, z.ZodType>();

function validator(key: string, schema: Schema): z.ZodType {
  let v = compiled.get(key);
  if (!v) {
    v = z.fromJSONSchema(withDefinitions(schema) as Parameters<typeof z.fromJSONSchema>[0], { defaultTarget: 'openapi-3.0' });
    compiled.set(key, v);
  }
  return v;
}

/** A query or path value as the schema's type reads it: GitHub takes `per_page=30` as the integer 30. */
function coerce(text: string, schema: Schema | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'array') return text.split(',');
  return text;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const at = issue.path.length ? issue.path.join('/') : '';
  return at ? `For '${at}', ${issue.message}` : issue.message;
}

/**
 * What GitHub's description refuses of a request to a matched operation, or null when it accepts it. `body` is
 * undefined for a request without one, or the parsed JSON; `bodyText` is kept to answer a body that is not JSON.
 */
export function refusalOf(op: MatchedOperation, query: URLSearchParams, body: { text: string; json: unknown; parsed: boolean }): Refusal | null {
  for (const raw of op.operation.parameters ?? []) {
    const p = resolve<Parameter>(raw);
    if (!p || (p.in !== 'path' && p.in !== 'query')) continue;
    const text = p.in === 'path' ? op.pathParams[p.name] : (query.get(p.name) ?? undefined);
    if (text === undefined) {
      if (p.required) return { status: 422, message: `Invalid request.\n\n"${p.name}" wasn't supplied.` };
      continue;
    }
    if (!p.schema) continue;
    const checked = validator(`${op.operationId}#${p.name}`, p.schema).safeParse(coerce(text, p.schema));
    // GitHub answers a path it cannot read (pulls/abc) as a route it does not have.
    if (!checked.success)
      return p.in === 'path' ? { status: 404, message: 'Not Found' } : { status: 422, message: `Invalid request.\n\n${p.name}: ${firstIssue(checked.error)}` };
  }
  const requestBody = op.operation.requestBody ? resolve(op.operation.requestBody) : undefined;
  const schema = requestBody?.content?.['application/json']?.schema;
  if (body.text.trim() === '') {
    if (requestBody?.required && schema) return { status: 422, message: 'Invalid request.\n\nA JSON body is required.' };
    return null;
  }
  if (!body.parsed) return { status: 400, message: 'Problems parsing JSON' };
  if (!schema) return null;
  const checked = validator(`${op.operationId}#body`, schema).safeParse(body.json);
  return checked.success ? null : { status: 422, message: `Invalid request.\n\n${firstIssue(checked.error)}` };
}

export function isRefusal(v: MatchedOperation | Refusal): v is Refusal {
  return 'status' in v;
}
