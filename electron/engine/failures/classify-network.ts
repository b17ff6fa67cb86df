// Network refusals (the sandbox proxy's), DNS and connection failures, TLS and registry errors: the environment's,
// headlined by their cause and the host, with the ratchet.yml line that lets a refused host through.
import type { GateResult } from '../gates/run-gate';
import { allowedBy, INSTALL_COMMAND, type ClassifyContext, type Ecosystem } from './classify-context';
import { lineAt, result, type Classification, type SideMessage } from './classify-result';

interface Tool {
  name: string;
  eco: Ecosystem | null;
}

const ECO_OF: Record<string, Ecosystem> = {
  npm: 'npm',
  npx: 'npm',
  pnpm: 'npm',
  yarn: 'npm',
  bun: 'npm',
  pip: 'pypi',
  pip3: 'pypi',
  uv: 'pypi',
  poetry: 'pypi',
  pipenv: 'pypi',
  go: 'go',
  cargo: 'cargo',
  mvn: 'maven',
  gradle: 'maven',
  gradlew: 'maven',
};
// Programs whose network failures are the environment's: package managers and downloaders.
const FETCHERS = new Set([...Object.keys(ECO_OF), 'curl', 'wget', 'git']);

/** Which program failed, from its output's own shape, else the gate command's first word. */
function toolOf(out: string, command: string): Tool {
  const shapes: Array<[RegExp, string]> = [
    [/^npm (?:ERR!|error|warn) /m, 'npm'],
    [/\bERR_PNPM_/, 'pnpm'],
    [/^Looking in indexes: |\bpip\._vendor\b|\(from versions: [^)]*\)|^ERROR: No matching distribution found/m, 'pip'],
    [/^go: |\/@v\/\S+\.(?:zip|mod|info)\b/m, 'go'],
    [/^[ \t]*Updating `[^`]+` index|failed to download from `|^[ \t]*Downloading crates\b/m, 'cargo'],
    [/^curl: \(\d+\)/m, 'curl'],
    [/^fatal: unable to access '/m, 'git'],
  ];
  for (const [re, name] of shapes) if (re.test(out)) return { name, eco: ECO_OF[name] ?? null };
  const first =
    command
      .trim()
      .split(/\s+/)
      .find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? '';
  const name = first.split('/').pop() ?? '';
  return { name: name || 'the command', eco: ECO_OF[name] ?? null };
}

const URL_RE = /\b(https?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\])(?::(\d+))?/;
const REQUEST_LINE =
  /\b(?:GET|POST|HEAD|PUT)\b|request to |\bGet "|failed to download from|Could not fetch URL|unable to access|Looking in indexes:|fetch(?:ing)? /;

function hostOfUrl(m: RegExpMatchArray): string {
  const port = m[3] && !((m[1] === 'https' && m[3] === '443') || (m[1] === 'http' && m[3] === '80')) ? `:${m[3]}` : '';
  return `${m[2]!.toLowerCase()}${port}`;
}

/** The host (with a port other than the scheme's) a failure is about: its own line, the request lines, then the command. */
function hostFor(out: string, line: string, command: string): string | null {
  const own = line.match(URL_RE);
  if (own) return hostOfUrl(own);
  const pool = out.match(/HTTPSConnectionPool\(host='([^']+)', port=(\d+)\)/);
  if (pool) return pool[2] === '443' ? pool[1]! : `${pool[1]}:${pool[2]}`;
  for (const l of out.split('\n')) {
    if (!REQUEST_LINE.test(l)) continue;
    const m = l.match(URL_RE);
    if (m) return hostOfUrl(m);
  }
  const cmd = command.match(URL_RE);
  return cmd ? hostOfUrl(cmd) : null;
}

// The sandbox proxy's refusals as clients print them (sandbox-runtime answers 403 "host is not on the allow list",
// with "Connection blocked by network allowlist" in the body and an X-Proxy-Error header); curl and pip show only the
// 403 of the CONNECT, which another proxy may answer too.
const REFUSED =
  /^.*(?:host is not on the allow list|Connection blocked by network allowlist|blocked-by-allowlist|CONNECT tunnel failed, response 403|Tunnel connection failed: 403).*$/m;
const SANDBOX_WORDING = /host is not on the allow list|Connection blocked by network allowlist|blocked-by-allowlist/;

// A command that may reach no host runs without the proxy's relays inside the sandbox (see sandbox/relays.ts), so a
// client that tries the proxy variables is refused at the library's fixed in-sandbox ports (3128 HTTP, 1080 SOCKS):
// the sandbox's refusal too, as npm, pip, go, cargo, curl and git print it.
const PROXY_UNREACHABLE =
  /^.*(?:ECONNREFUSED (?:127\.0\.0\.1|::1|localhost):(?:3128|1080)\b|dial tcp (?:127\.0\.0\.1|\[::1\]|localhost):(?:3128|1080): connect: connection refused|Failed to connect to (?:localhost|127\.0\.0\.1|::1) port (?:3128|1080)\b|Cannot connect to proxy\.'?, NewConnectionError\(.*Connection refused).*$/m;

function refusal(host: string | null, tool: Tool, ctx: ClassifyContext): Classification {
  const setup = ctx.phase === 'setup';
  const key = setup ? 'setup' : 'sandbox';
  const who = tool.name === 'the command' ? 'a' : `${tool.name}'s`;
  const message = host
    ? `The sandbox refused ${who} connection to ${host}${setup ? ' during setup' : ''}: add it to ${key}.network in ratchet.yml (${key}: { network: [${host}] })`
    : `The sandbox refused ${who} connection to a host not on ${key}.network${setup ? ' during setup' : ''}: add the host to ${key}.network in ratchet.yml`;
  const hints: string[] = [];
  if (tool.eco && setup) {
    hints.push(
      `If ${host ?? 'it'} is the registry ${tool.name} is configured with, registry:${tool.eco} names it without its host (setup: { network: [registry:${tool.eco}] }).`,
    );
  } else if (tool.eco) {
    hints.push(
      `Gates need no registry when setup installs the dependencies: setup: { run: "${INSTALL_COMMAND[tool.eco]}", network: [registry:${tool.eco}] } in ratchet.yml.`,
    );
  }
  hints.push('No change the agent makes can reach a host the sandbox refuses: Ratchet stops here instead of retrying.');
  return result('environment', message, hints);
}

const DNS: Array<[RegExp, (m: RegExpMatchArray) => { reason: string; host: string | null }]> = [
  [/getaddrinfo (ENOTFOUND|EAI_AGAIN) ([^\s,]+)/, (m) => ({ reason: m[1]!, host: m[2]! })],
  [/Could not resolve host: ([^\s,)]+)/, (m) => ({ reason: 'Could not resolve host', host: m[1]! })],
  [
    /\[Errno -?\d+\] (Name or service not known|Temporary failure in name resolution|No address associated with hostname|nodename nor servname provided, or not known)/,
    (m) => ({ reason: m[1]!, host: null }),
  ],
  [/dial tcp: lookup ([^\s:]+)(?: on \S+)?: (no such host|server misbehaving|i\/o timeout)/, (m) => ({ reason: m[2]!, host: m[1]! })],
];
const CONNECT: Array<[RegExp, (m: RegExpMatchArray) => string | null]> = [
  [/connect ECONNREFUSED ([^\s,]+)/, (m) => m[1]!],
  [/Failed to connect to (\S+) port (\d+)/, (m) => `${m[1]}:${m[2]}`],
  [/dial tcp ([^\s]+): connect: connection refused/, (m) => m[1]!],
  [/\[Errno 111\] Connection refused/, () => null],
];

const TLS_CODE =
  /\b(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_HAS_EXPIRED|CERT_UNTRUSTED|ERR_TLS_CERT_ALTNAME_INVALID)\b/;
const TLS_REASON: RegExp[] = [
  /\[SSL: (CERTIFICATE_VERIFY_FAILED)\] certificate verify failed: ([^(')\n]+?)\s*\(_ssl/,
  /SSL certificate problem: ([^)\n]+)/,
  /x509: (certificate signed by unknown authority|certificate has expired[^"\n]*|certificate is not valid[^"\n]*)/,
  /(unable to get local issuer certificate|self[- ]signed certificate in certificate chain)/,
];
const CA_VARIABLES: Record<string, string> = {
  npm: 'NODE_EXTRA_CA_CERTS',
  pnpm: 'NODE_EXTRA_CA_CERTS',
  yarn: 'NODE_EXTRA_CA_CERTS',
  node: 'NODE_EXTRA_CA_CERTS',
  pip: 'PIP_CERT (or REQUESTS_CA_BUNDLE)',
  uv: 'SSL_CERT_FILE',
  poetry: 'REQUESTS_CA_BUNDLE',
  python: 'REQUESTS_CA_BUNDLE (or SSL_CERT_FILE)',
  curl: 'CURL_CA_BUNDLE (or SSL_CERT_FILE)',
  git: 'GIT_SSL_CAINFO',
  go: 'SSL_CERT_FILE',
  cargo: 'SSL_CERT_FILE',
};

function tls(out: string, r: GateResult, tool: Tool, side: SideMessage): Classification | null {
  const code = out.match(TLS_CODE);
  let reason: string | null = null;
  let signal: RegExpMatchArray | null = null;
  for (const re of TLS_REASON) {
    signal = out.match(re);
    if (signal) {
      reason = signal.length > 2 ? `${signal[1]}: ${signal[2]!.trim()}` : signal[1]!.trim();
      break;
    }
  }
  if (code && !side(lineAt(out, code.index ?? 0))) {
    const why = out.match(/reason: ([^\n]+)$/m)?.[1]?.trim();
    reason = `${code[1]}${why ? `: ${why}` : ''}`;
    signal = code;
  }
  if (!signal || reason === null || side(lineAt(out, signal.index ?? 0))) return null;
  const host = hostFor(out, lineAt(out, signal.index ?? 0), r.command);
  const vars = CA_VARIABLES[tool.name] ?? "SSL_CERT_FILE (or the tool's own CA setting)";
  return result('environment', `TLS: ${tool.name} does not trust the certificate of ${host ?? 'the server'} (${reason})`, [
    `${tool.name} does not know the CA that signed ${host ?? 'the server'}'s certificate (a TLS-inspecting proxy or a private registry): set ${vars} to your CA bundle in the environment Ratchet starts from; Ratchet passes it into the sandbox.`,
  ]);
}

function npmRegistry(out: string): Classification | null {
  const code = out.match(/^npm (?:ERR!|error) code E(\d{3})\s*$/m);
  if (!code) return null;
  const status = code[1]!;
  const req = out.match(/^npm (?:ERR!|error) \d{3} (?:\d{3} )?(.+?) - (?:GET|PUT|POST|HEAD) (\S+)/m);
  const url = req?.[2]?.match(URL_RE);
  const at = url ? ` at ${hostOfUrl(url)}` : '';
  if (status === '404') {
    const what = out.match(/The requested resource '([^']+)' could not be found/)?.[1] ?? req?.[2]?.split('/').pop() ?? 'the package';
    return result('environment', `The npm registry${at} has no ${what} (E404 Not Found)`, [
      'Check the package name and version (an attempt that added this dependency may have misspelt it) and that the registry npm is configured with serves it.',
    ]);
  }
  if (status === '401')
    return result('environment', `The npm registry${at} refused the credentials (E401)`, [
      "Check the registry's token in your npm configuration: Ratchet passes registries into the sandbox, never tokens, so install from an authenticated registry in setup.",
    ]);
  if (status.startsWith('5')) {
    return result('environment', `The npm registry${at} failed: ${status} ${req?.[1] ?? ''} (E${status})`.replace(/ {2,}/g, ' '), [
      'The registry is failing: retry or resume once it answers again.',
    ]);
  }
  return result('environment', `The npm registry${at} refused the request: ${status} ${req?.[1] ?? ''} (E${status})`.replace(/ {2,}/g, ' '));
}

/**
 * A network, TLS or registry failure of a package manager or downloader (the environment's), or null. `side` lines
 * (outside parsed failing tests) never decide: a test suite that reaches a refused host still failed as tests.
 */
export function networkFailure(r: GateResult, out: string, ctx: ClassifyContext, side: SideMessage): Classification | null {
  const tool = toolOf(out, r.command);
  const refused = out.match(REFUSED);
  if (refused && !side(refused[0])) {
    const host = hostFor(out, refused[0], r.command);
    // Not sandboxed (network null): a proxy of the user's own refused it.
    if (ctx.network === null && !SANDBOX_WORDING.test(out)) {
      return result('environment', `Network: a proxy refused ${tool.name}'s connection to ${host ?? 'its host'} (403)`, [
        "Check the proxy this machine uses (HTTPS_PROXY, the tool's own proxy setting) and whether it lets that host through.",
      ]);
    }
    return refusal(host, tool, ctx);
  }
  const unreachable = Array.isArray(ctx.network) ? out.match(PROXY_UNREACHABLE) : null;
  if (unreachable && !side(unreachable[0])) return refusal(hostFor(out, unreachable[0], r.command), tool, ctx);
  const fetcher = FETCHERS.has(tool.name);
  // A plain-HTTP request the proxy refused shows only the status: a host off the command's list answering 403 was
  // refused. (A `registry:` entry is resolved elsewhere: with one for the tool's ecosystem, a 403 may be the registry's.)
  if (fetcher && ctx.network && !(tool.eco && ctx.network.includes(`registry:${tool.eco}`))) {
    const forbidden = out.match(/^.*\b403\b.*$/m);
    const host = forbidden && !side(forbidden[0]) ? hostFor(out, forbidden[0], r.command) : null;
    if (host && !/^(?:localhost|127\.|\[::1\])/.test(host) && !allowedBy(ctx.network, host)) return refusal(host, tool, ctx);
  }
  const secure = tls(out, r, tool, side);
  if (secure) return secure;
  if (!fetcher) return null;
  for (const [re, read] of DNS) {
    const m = out.match(re);
    if (!m || side(lineAt(out, m.index ?? 0))) continue;
    const { reason, host } = read(m);
    const name = host ?? hostFor(out, lineAt(out, m.index ?? 0), r.command) ?? 'its host';
    return result('environment', `Network: ${tool.name} could not resolve ${name} (${reason})`, [
      `Check the host name (${tool.name}'s configured registry or index, or the URL in the command) and this machine's DNS, proxy or VPN.`,
    ]);
  }
  for (const [re, read] of CONNECT) {
    const m = out.match(re);
    if (!m || side(lineAt(out, m.index ?? 0))) continue;
    const host = read(m) ?? hostFor(out, lineAt(out, m.index ?? 0), r.command) ?? 'its host';
    return result('environment', `Network: ${tool.name} could not connect to ${host} (ECONNREFUSED)`, [
      `Nothing answered at ${host}: start the service (or the registry) there, or point ${tool.name}'s configuration at one that runs.`,
    ]);
  }
  if (tool.name === 'npm') return npmRegistry(out);
  return null;
}
