// The user's package-manager and git configuration without its secrets: sanitized copies written into the run's private HOME (and Ratchet's cargo home), so a gate uses the registries, indexes and certificates the user works with and never their tokens.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { withoutUserinfo } from './toolchains';
import { userExcludesFile } from '../git/run-excludes';
import { WORKTREE_DENIED_PATHS } from '../fs/worktree-denies';

/** Setting names that carry a secret, or that would route around the sandbox's proxy. */
const SECRET_KEY =
  /token|passw|secret|credential|_auth|auth(?:ident|orization)?$|^auth|private[-_]?key|client[-_]?cert|^proxy$|[-_]proxy$|^https?[-_]?proxy|^noproxy$|^email$|^username$|^user$|certfile|keyfile/i;

/** Whether a setting name (its last dotted part) is one to drop. */
export function isSecretKey(key: string): boolean {
  const last =
    key
      .trim()
      .replace(/^["']|["']$/g, '')
      .split('.')
      .pop() ?? key;
  return SECRET_KEY.test(last.replace(/^["']|["']$/g, ''));
}

/**
 * ~/.npmrc: registries (`registry`, `@scope:registry`), certificates and behaviour settings kept; every
 * `//host/:…` line (per-registry auth), `_auth*`, passwords, user names, e-mail, client certificates, proxies and
 * paths Ratchet sets itself dropped; user names and passwords inside URLs removed.
 */
export function sanitizeNpmrc(text: string): string {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t === '' || t.startsWith('#') || t.startsWith(';')) continue;
    const eq = t.indexOf('=');
    if (eq < 0) continue;
    const key = t.slice(0, eq).trim();
    if (key.startsWith('//') || isSecretKey(key) || /^(cache|prefix|globalconfig|userconfig|tmp|store-dir)$/i.test(key)) continue;
    out.push(`${key}=${withoutUserinfo(t.slice(eq + 1).trim())}`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** pip.conf (INI): sections and index settings kept (continuation lines too); client certificates, proxies and credentials dropped. */
export function sanitizePipConf(text: string): string {
  const out: string[] = [];
  let dropping = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue;
    if (/^\s+\S/.test(line)) {
      // A continuation of the previous value (extra-index-url = \n  url1\n  url2).
      if (!dropping) out.push(withoutUserinfo(line));
      continue;
    }
    if (/^\s*\[.*\]\s*$/.test(line)) {
      dropping = false;
      out.push(line.trim());
      continue;
    }
    const m = /^\s*([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (!m) continue;
    dropping = isSecretKey(m[1]!);
    if (!dropping) out.push(`${m[1]} = ${withoutUserinfo(m[2]!)}`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** How many brackets a TOML value leaves open, outside strings (a multi-line array continues until it closes). */
function openBrackets(s: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') break;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth;
}

/** `s` split at commas outside strings, brackets and braces. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** An inline table's (`{ index = "…", token = "…" }`) secret pairs removed; any other value unchanged. */
function withoutSecretPairs(value: string): string {
  const m = /^\{(.*)\}(\s*(?:#.*)?)$/.exec(value.trim());
  if (!m) return value;
  const kept = splitTopLevel(m[1]!)
    .map((p) => p.trim())
    .filter((p) => p !== '' && !isSecretKey(p.split('=')[0] ?? ''));
  return `{ ${kept.map((p) => (p.startsWith('{') ? p : p.replace(/=\s*(\{.*\})$/, (_, inner: string) => `= ${withoutSecretPairs(inner)}`))).join(', ')} }${m[2]!}`;
}

/**
 * A TOML file (cargo's config.toml, uv.toml): every key whose name carries a secret (token, credential-provider,
 * password, proxy…) dropped wherever it is (table, dotted key or inline table), `[env]` entries with secret-looking
 * names dropped, user names and passwords inside URLs removed; the rest (sources, registries, indexes, certificates)
 * kept as written.
 */
export function sanitizeToml(text: string): string {
  const out: string[] = [];
  let table = '';
  let skip = 0;
  let dropContinuation = false;
  let multiline: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (multiline) {
      if (!dropContinuation) out.push(withoutUserinfo(line));
      if (line.includes(multiline)) multiline = null;
      continue;
    }
    if (skip > 0) {
      skip += openBrackets(line);
      if (!dropContinuation) out.push(withoutUserinfo(line));
      continue;
    }
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(t);
    if (header) {
      table = header[1]!;
      out.push(t);
      continue;
    }
    const m = /^([A-Za-z0-9_.\-"' ]+?)\s*=\s*(.*)$/.exec(t);
    if (!m) continue;
    const key = `${table}.${m[1]!}`;
    const value = m[2]!;
    dropContinuation = isSecretKey(key) || (/^env$/i.test(table) && /token|secret|passw|key|auth|credential/i.test(m[1]!));
    const triple = /^("""|''')/.exec(value);
    if (triple && value.indexOf(triple[1]!, 3) < 0) multiline = triple[1]!;
    else skip = Math.max(0, openBrackets(value));
    if (!dropContinuation) out.push(`${m[1]} = ${withoutUserinfo(withoutSecretPairs(value))}`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return withoutUserinfo(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !isSecretKey(k))
        .map(([k, v]) => [k, scrub(v)]),
    );
  }
  return value;
}

/** ~/.yarnrc.yml: `npmAuthToken`, `npmAuthIdent`, proxies (at any depth, scopes included) dropped; registries and certificates kept. */
export function sanitizeYarnrc(text: string): string {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return '';
  }
  if (!doc || typeof doc !== 'object') return '';
  return stringifyYaml(scrub(doc));
}

/** ~/.gitconfig: the identity (`user.name`, `user.email`) only; credential helpers, URL rewrites, includes and aliases stay behind. */
export function sanitizeGitconfig(text: string): string {
  let section = '';
  const id: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(t);
    if (head) {
      section = /^\[\s*[A-Za-z0-9.-]+\s+"/.test(t) ? `${head[1]!.toLowerCase()}.sub` : head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(t);
    if (section === 'user' && kv && /^(name|email)$/i.test(kv[1]!)) id[kv[1]!.toLowerCase()] = kv[2]!.trim();
  }
  const lines = Object.entries(id).map(([k, v]) => `\t${k} = ${v}`);
  return lines.length ? `[user]\n${lines.join('\n')}\n` : '';
}

/** `core.excludesFile` as the user's git config texts set it (the last one wins, as written); null when unset. */
export function configuredExcludesFile(texts: readonly string[]): string | null {
  let found: string | null = null;
  for (const text of texts) {
    let section = '';
    for (const line of text.split(/\r?\n/)) {
      const t = line.trim();
      const head = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(t);
      if (head) section = head[1]!.toLowerCase();
      else if (t.startsWith('[')) section = '';
      const kv = /^excludesfile\s*=\s*(.*)$/i.exec(t);
      if (section === 'core' && kv) found = kv[1]!.trim().replace(/^"(.*)"$/, '$1');
    }
  }
  return found;
}

/** The sandbox's git excludes: the user's global ones, then the worktree paths the sandbox holds with placeholders. */
export function sandboxGitIgnore(userExcludes: string): string {
  const own = userExcludes === '' || userExcludes.endsWith('\n') ? userExcludes : `${userExcludes}\n`;
  return `${own}# Ratchet's sandbox: placeholders at the paths it protects\n${WORKTREE_DENIED_PATHS.map((p) => `/${p}`).join('\n')}\n`;
}

/** ~/.m2/settings.xml: the `<mirrors>` only (servers and their passwords, proxies and profiles stay behind). */
export function sanitizeMavenSettings(text: string): string {
  const mirrors = /<mirrors>[\s\S]*?<\/mirrors>/.exec(text.replace(/<!--[\s\S]*?-->/g, ''));
  if (!mirrors) return '';
  const kept = mirrors[0].replace(/<(username|password|privateKey|passphrase)>[\s\S]*?<\/\1>/g, '');
  return `<settings>\n  ${withoutUserinfo(kept)}\n</settings>\n`;
}

function readIf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Writes `text` to `file` whole (a concurrent reader never sees half of it). */
function writeWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export interface UserConfigInput {
  /** The user's real home. */
  userHome: string;
  /** HOME inside the sandbox (the run's private folder). */
  home: string;
  /** CARGO_HOME inside the sandbox (Ratchet's cargo cache). */
  cargoHome?: string;
  /** pnpm's shared store (written to pnpm's own config in the private HOME). */
  pnpmStore?: string;
  /** The user's environment (XDG_CONFIG_HOME, CARGO_HOME say where their files are). */
  env: NodeJS.ProcessEnv;
}

/**
 * Writes the sanitized copies: ~/.npmrc, pip.conf, uv.toml, ~/.yarnrc.yml, ~/.gitconfig (with git's excludes) and ~/.m2/settings.xml
 * into the private HOME, cargo's config.toml into Ratchet's cargo home (replacing whatever a sandboxed command left
 * there: cargo would read a `config` beside it first). Returns the files written.
 */
export function writeUserConfig(input: UserConfigInput): string[] {
  const { userHome, home, env } = input;
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(userHome, '.config');
  const written: string[] = [];
  const copy = (sources: string[], dest: string, sanitize: (t: string) => string, always = false) => {
    const parts = sources
      .map(readIf)
      .filter((t): t is string => t !== null)
      .map(sanitize)
      .filter((t) => t !== '');
    if (!parts.length && !always) return;
    writeWhole(dest, parts.join('\n'));
    written.push(dest);
  };
  copy([path.join(userHome, '.npmrc')], path.join(home, '.npmrc'), sanitizeNpmrc);
  copy([path.join(userHome, '.pip', 'pip.conf'), path.join(xdg, 'pip', 'pip.conf')], path.join(home, '.config', 'pip', 'pip.conf'), sanitizePipConf);
  copy([path.join(xdg, 'uv', 'uv.toml')], path.join(home, '.config', 'uv', 'uv.toml'), sanitizeToml);
  copy([path.join(userHome, '.yarnrc.yml')], path.join(home, '.yarnrc.yml'), sanitizeYarnrc);
  // asdf's (and mise's) global versions, which their shims read from HOME: tool names and versions only.
  copy([path.join(userHome, '.tool-versions')], path.join(home, '.tool-versions'), (t) => t);
  // git's own identity, and an excludes file of its own (HOME is private: the user's global one is not read) holding the
  // user's global excludes and the sandbox's placeholders, so `git status` in a gate or the agent's shell lists neither.
  const gitSources = [path.join(userHome, '.gitconfig'), path.join(xdg, 'git', 'config')];
  const ignore = path.join(home, '.config', 'git', 'ignore');
  // Where git would find them (`~/` expanded, else the XDG default): the run's exclude file's own rule.
  const userIgnore = userExcludesFile(configuredExcludesFile(gitSources.map(readIf).filter((t): t is string => t !== null)), {
    ...env,
    HOME: userHome,
    XDG_CONFIG_HOME: xdg,
  });
  writeWhole(ignore, sandboxGitIgnore(readIf(userIgnore) ?? ''));
  written.push(ignore);
  const identity = gitSources
    .map(readIf)
    .filter((t): t is string => t !== null)
    .map(sanitizeGitconfig)
    .filter((t) => t !== '');
  writeWhole(path.join(home, '.gitconfig'), [...identity, `[core]\n\texcludesFile = ${ignore}\n`].join('\n'));
  written.push(path.join(home, '.gitconfig'));
  copy([path.join(userHome, '.m2', 'settings.xml')], path.join(home, '.m2', 'settings.xml'), sanitizeMavenSettings);
  if (input.pnpmStore) {
    writeWhole(path.join(home, '.config', 'pnpm', 'rc'), `store-dir=${input.pnpmStore}\n`);
    written.push(path.join(home, '.config', 'pnpm', 'rc'));
  }
  if (input.cargoHome) {
    const userCargo = env.CARGO_HOME && path.isAbsolute(env.CARGO_HOME) ? env.CARGO_HOME : path.join(userHome, '.cargo');
    for (const stale of ['config', 'credentials', 'credentials.toml']) rmSync(path.join(input.cargoHome, stale), { force: true });
    // Always written: it is a file the sandbox may not change, and the sandbox can only protect what exists.
    copy([path.join(userCargo, 'config'), path.join(userCargo, 'config.toml')], path.join(input.cargoHome, 'config.toml'), sanitizeToml, true);
  }
  return written;
}
