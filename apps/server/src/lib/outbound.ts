import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Msg } from '@studio/contract';

/**
 * The one gate of every request the server sends (the WeCom webhook today; SMS and meeting
 * providers must use it too). Refused, with a Chinese message: URLs with a user name or password,
 * and hosts that are loopback, private, shared, link-local, unspecified, multicast or reserved
 * addresses, in any spelling (decimal, octal and hex IPv4 are normalised by the URL parser; IPv6
 * forms that carry an IPv4 address are unpacked). Checked when a URL is saved, and again when
 * sending, after DNS resolution: the connection goes to the address that was checked. Hosts in the
 * operator's allow-list (OUTBOUND_ALLOW_HOSTS) pass.
 */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** An allow-list entry: a host name or address, with or without a port (then any port). */
export interface AllowedHost {
  host: string;
  port?: string;
}

/** OUTBOUND_ALLOW_HOSTS: comma-separated `host` or `host:port` (`[::1]:8080` for IPv6). */
export function parseAllowHosts(list: string): AllowedHost[] {
  return list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((entry) => {
      let u: URL;
      try {
        u = new URL(`http://${entry}`);
      } catch {
        throw new Error(`配置错误:\nOUTBOUND_ALLOW_HOSTS: ${entry} 不是 主机 或 主机:端口`);
      }
      const explicitPort = /:\d+$/.test(entry);
      return explicitPort ? { host: u.hostname, port: u.port || '80' } : { host: u.hostname };
    });
}

const v4Blocked = new net.BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  v4Blocked.addSubnet(a, p, 'ipv4');
}
const v6Blocked = new net.BlockList();
for (const [a, p] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  v6Blocked.addSubnet(a, p, 'ipv6');
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part included). */
function v6Words(address: string): number[] {
  let s = address.toLowerCase().split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((w) => parseInt(w, 16));
}

/** The IPv4 address inside an IPv6 one: mapped, compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16). */
function embeddedV4(address: string): string | undefined {
  const w = v6Words(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (w[5] === 0xffff || w[5] === 0)) return v4(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6], w[7]);
  if (w[0] === 0x2002) return v4(w[1], w[2]);
  return undefined;
}

/** Whether an address (IPv4 or IPv6, without brackets) may not be reached from the server. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return v4Blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  if (v6Blocked.check(address, 'ipv6')) return true;
  const inner = embeddedV4(address);
  return inner !== undefined && v4Blocked.check(inner, 'ipv4');
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * The literal check (no DNS): a readable http(s) URL, without credentials, whose host is not a
 * blocked address unless allowed. Throws OutboundRefused; answers the URL and whether it is allowed.
 */
export function checkOutboundUrl(raw: string, allow: readonly AllowedHost[]): { url: URL; allowed: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(Msg.outboundUrl);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new OutboundRefused(Msg.outboundUrl);
  }
  if (url.username || url.password) throw new OutboundRefused(Msg.outboundCredentials);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.toLowerCase();
  const allowed = allow.some((a) => a.host === host && (a.port === undefined || a.port === port));
  if (!allowed && net.isIP(bare(host)) && isBlockedAddress(bare(host))) throw new OutboundRefused(Msg.outboundBlocked);
  return { url, allowed };
}

/** A DNS lookup for the connection that refuses a name when any of its addresses is blocked. */
const guardedLookup = ((hostname: string, options: dns.LookupOptions, callback: (...a: unknown[]) => void) => {
  dns.lookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err);
    if (!addresses.length || addresses.some((a) => isBlockedAddress(a.address))) {
      return callback(new OutboundRefused(Msg.outboundBlocked));
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}) as unknown as net.LookupFunction;

/**
 * The check at save time: the literal check, then the name's current addresses (a name that does
 * not resolve now is accepted: sending checks it again). Throws OutboundRefused.
 */
export async function checkOutboundTarget(raw: string, allow: readonly AllowedHost[]): Promise<void> {
  const { url, allowed } = checkOutboundUrl(raw, allow);
  if (allowed || net.isIP(bare(url.hostname))) return;
  const addresses = await Promise.race([
    dns.promises.lookup(url.hostname, { all: true }).catch(() => []),
    new Promise<[]>((resolve) => setTimeout(() => resolve([]), 3000).unref()),
  ]);
  if (addresses.some((a) => isBlockedAddress(a.address))) throw new OutboundRefused(Msg.outboundBlocked);
}

/** What a request answered: status, text and (for providers that sign their answers) the headers. */
export interface OutboundAnswer {
  status: number;
  text: string;
  /** The raw bytes read (a zipped bill); `text` is them as UTF-8. */
  bytes: Buffer;
  /** Response headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the answer was longer than the limit and cut. */
  truncated: boolean;
}

/**
 * POSTs a body to a checked URL (or GETs it, `method: 'GET'` with an empty body) and answers the
 * status and (up to `maxBytes`, default 64 KB, of) text. Redirects are not followed. The connection
 * goes to the address the guarded lookup checked. `headers` are added (a provider's signature headers).
 */
export function outboundPost(
  raw: string,
  body: string,
  opts: {
    allow: readonly AllowedHost[];
    timeoutMs: number;
    contentType?: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    /** Bills are larger than webhook answers. */
    maxBytes?: number;
  },
): Promise<OutboundAnswer> {
  const { url, allowed } = checkOutboundUrl(raw, opts.allow);
  const client = url.protocol === 'https:' ? https : http;
  const limit = opts.maxBytes ?? 65_536;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: opts.method ?? 'POST',
        headers: {
          ...(opts.method === 'GET'
            ? {}
            : { 'content-type': opts.contentType ?? 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...opts.headers,
        },
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(allowed ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (size < limit) {
            chunks.push(chunk);
            size += chunk.length;
          } else truncated = true;
        });
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            text: bytes.toString('utf8'),
            bytes,
            headers: res.headers,
            truncated,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
