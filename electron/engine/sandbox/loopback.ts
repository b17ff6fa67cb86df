// A command that must reach a host on loopback or a private network (a command agent's local API gateway) reaches it through the sandbox's proxy: the proxy variables would send it direct, to the sandbox's own empty loopback.
import { BlockList, connect, isIP } from 'node:net';
// Deep import: the library's own proxy variables, so the NO_PROXY we narrow is the one it sets.
import { generateProxyEnvVars } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js';

/** The library's NO_PROXY entries (loopback names and addresses, private ranges). */
export function libraryNoProxy(): string[] {
  const line = generateProxyEnvVars(1, 1).find((v) => v.startsWith('NO_PROXY='));
  return line ? line.slice('NO_PROXY='.length).split(',').filter(Boolean) : [];
}

/** The host part of `host`, `host:port` or `[v6]:port`. */
function hostPart(hostPort: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(hostPort);
  if (v6) return v6[1]!;
  return isIP(hostPort) === 6 ? hostPort : hostPort.replace(/:\d+$/, '');
}

/** Whether a NO_PROXY entry (a name, an address or a CIDR range) covers `host`. */
export function noProxyCovers(entry: string, host: string): boolean {
  const h = host.toLowerCase();
  const e = entry.trim().toLowerCase();
  if (e === h) return true;
  const cidr = /^([^/]+)\/(\d+)$/.exec(e);
  const family = isIP(h);
  if (cidr && family && isIP(cidr[1]!) === family) {
    const list = new BlockList();
    list.addSubnet(cidr[1]!, Number(cidr[2]), family === 6 ? 'ipv6' : 'ipv4');
    return list.check(h, family === 6 ? 'ipv6' : 'ipv4');
  }
  return !cidr && (h.endsWith(`.${e.replace(/^\./, '')}`) || (e.startsWith('*.') && h.endsWith(e.slice(1))));
}

/**
 * The shell line that narrows NO_PROXY for one command: the library's list without the entries that would send
 * `hosts` direct. Other loopback names stay direct (a test server the command starts on localhost is its own).
 * Empty when nothing needs narrowing.
 */
export function noProxyExport(hosts: readonly string[]): string {
  if (!hosts.length) return '';
  const names = hosts.map(hostPart);
  const entries = libraryNoProxy();
  const kept = entries.filter((e) => !names.some((h) => noProxyCovers(e, h)));
  if (kept.length === entries.length) return '';
  const v = kept.join(',');
  return `export NO_PROXY='${v}' no_proxy='${v}'`;
}

/** Whether `host` (`host[:port]`) names this machine's loopback interface. */
export function isLoopbackHost(hostPort: string): boolean {
  const h = hostPart(hostPort).toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The first loopback `host:port` of `hosts` where nothing accepts a connection (from outside the sandbox, where the
 * gateway lives), or null. Hosts without a port, and other hosts, are not tried.
 */
export async function silentLoopback(hosts: readonly string[], timeoutMs = 2000): Promise<string | null> {
  for (const hp of hosts) {
    const port = /:(\d+)$/.exec(hp)?.[1];
    if (!port || !isLoopbackHost(hp)) continue;
    const host = hostPart(hp);
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: host === 'localhost' ? 'localhost' : host, port: Number(port), timeout: timeoutMs });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });
    if (!answered) return hp;
  }
  return null;
}
