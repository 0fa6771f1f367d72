/**
 * Where webhooks may go (SSRF protection).
 *
 * Receiver addresses in private (RFC 1918, RFC 4193 unique-local), loopback, link-local
 * (incl. 169.254.169.254 metadata), shared (RFC 6598), multicast, reserved and unspecified
 * ranges are refused, including their IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::/96)
 * forms, unless the operator allow-listed the network (GATEHOUSE_WEBHOOK_ALLOW_NETWORKS).
 *
 * The check runs twice: at registration (a clear 400 for the user) and at connect time,
 * where the dispatcher's connection resolves the host through `guardedLookup` and connects to
 * the very address that passed, so a DNS answer that changes between check and connect
 * (rebinding) cannot reach an internal address. In production mode (an https issuer) receiver
 * URLs must be https.
 */
import dns from 'node:dns';
import net from 'node:net';

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

export class RefusedTarget extends Error {}

export interface TargetPolicy {
  /** Throws RefusedTarget with a reason a user can act on. */
  checkUrl(url: string): Promise<URL>;
  /** Throws RefusedTarget when `address` may not be connected to. */
  checkAddress(address: string): void;
  /** A `net.connect` lookup that only ever yields addresses that pass `checkAddress`. */
  guardedLookup: net.LookupFunction;
}

export function createTargetPolicy(options: { allowNetworks: readonly string[]; requireHttps: boolean; resolve?: Resolve }): TargetPolicy {
  const resolve = options.resolve ?? systemResolve;
  const blocked = new net.BlockList();
  for (const [a, p] of BLOCKED_V4) blocked.addSubnet(a, p, 'ipv4');
  for (const [a, p] of BLOCKED_V6) blocked.addSubnet(a, p, 'ipv6');
  const allowed = new net.BlockList();
  for (const cidr of options.allowNetworks) {
    const [a, p] = cidr.split('/') as [string, string];
    const family = net.isIPv6(a) ? 'ipv6' : 'ipv4';
    allowed.addSubnet(a, Number(p), family);
  }

  function checkAddress(address: string): void {
    const { ip, family } = normalise(address);
    if (allowed.check(ip, family)) return;
    if (blocked.check(ip, family)) {
      throw new RefusedTarget(`${address} is a private, loopback, link-local or reserved address`);
    }
  }

  async function addressesOf(hostname: string): Promise<Array<{ address: string; family: number }>> {
    if (net.isIP(hostname)) return [{ address: hostname, family: net.isIP(hostname) }];
    let found: Array<{ address: string; family: number }>;
    try {
      found = await resolve(hostname);
    } catch {
      throw new RefusedTarget(`${hostname} does not resolve`);
    }
    if (found.length === 0) throw new RefusedTarget(`${hostname} does not resolve`);
    return found;
  }

  return {
    checkAddress,
    async checkUrl(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new RefusedTarget('url must be an absolute URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RefusedTarget('url must be http or https');
      if (options.requireHttps && url.protocol !== 'https:') throw new RefusedTarget('url must be https');
      if (url.username || url.password) throw new RefusedTarget('url must not carry credentials');
      if (url.hash) throw new RefusedTarget('url must not have a fragment');
      // Every address the name resolves to must be acceptable, not just the first.
      for (const { address } of await addressesOf(hostnameOf(url))) checkAddress(address);
      return url;
    },
    guardedLookup(hostname, lookupOptions, callback) {
      const all = (lookupOptions as { all?: boolean }).all === true;
      addressesOf(hostname)
        .then((found) => {
          for (const { address } of found) checkAddress(address);
          if (all) (callback as unknown as (e: null, a: typeof found) => void)(null, found);
          else callback(null, found[0]!.address, found[0]!.family);
        })
        .catch((error: Error) => callback(Object.assign(error, { code: 'EREFUSEDTARGET' }) as NodeJS.ErrnoException, '', 0));
    },
  };
}

/** The host of a URL without IPv6 brackets. */
export function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** IPv4-mapped and NAT64 IPv6 addresses are judged as the IPv4 address they carry. */
function normalise(address: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  if (net.isIPv4(address)) return { ip: address, family: 'ipv4' };
  const lower = address.toLowerCase();
  const embedded = /^(?:::ffff:|64:ff9b::)(?:0:)?([0-9.]+)$/.exec(lower);
  if (embedded && net.isIPv4(embedded[1]!)) return { ip: embedded[1]!, family: 'ipv4' };
  const hexMapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return { ip: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { ip: address, family: 'ipv6' };
}
