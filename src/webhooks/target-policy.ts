/**
 * Where webhooks may go (SSRF protection).
 *
 * A receiver must be globally routable unicast, as ipaddr.js classifies ranges (its table follows
 * the IANA special-purpose registries): an IPv4 address whose range is `unicast`; an IPv6 address
 * whose range is `unicast` and that lies in global unicast, 2000::/3 (RFC 4291 §2.4). So private,
 * loopback, link-local (169.254.169.254 metadata), shared (100.64/10), documentation,
 * benchmarking, multicast, broadcast, reserved and unspecified ranges are refused, and so is every
 * form that reaches IPv4 through a translator or a tunnel (NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 * SIIT ::ffff:0:0:0/96, 6to4 2002::/16, Teredo 2001::/32, IPv4-compatible ::/96): where such a
 * packet ends up is decided by a relay this policy cannot see. An IPv4-mapped address
 * (::ffff:a.b.c.d) is judged as the IPv4 address it carries, since a socket connects to exactly that.
 *
 * The operator's allow-list (GATEHOUSE_WEBHOOK_ALLOW_NETWORKS, IPv4 and IPv6 CIDRs) admits what it
 * covers. Behind an allowed 64:ff9b::/96 address the IPv4 address the translator reaches is judged
 * too: allowing the translator is not allowing what sits behind it.
 *
 * The check runs twice: at registration (a clear 400 for the user) and at connect time,
 * where the dispatcher's connection resolves the host through `guardedLookup` and connects to
 * the very address that passed, so a DNS answer that changes between check and connect
 * (rebinding) cannot reach an internal address. In production mode (an https issuer) receiver
 * URLs must be https.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/** RFC 4291 §2.4: everything outside 2000::/3 is special-purpose or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** RFC 6052 §2.1: the well-known NAT64 prefix carries the IPv4 address in its last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** ipaddr.js range names a user would not recognise, in words. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  rfc6052: 'NAT64',
  rfc6145: 'SIIT',
  carrierGradeNat: 'shared address space',
  deprecatedSiteLocal: 'site-local',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'DRIP entity tags',
  segmentRouting: 'segment routing',
};

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
  const allowed = options.allowNetworks.map((cidr) => ipaddr.parseCIDR(cidr));

  function checkAddress(address: string): void {
    const refusal = refusalOf(parseAddress(address), allowed);
    if (refusal !== null) throw new RefusedTarget(`${address} is not a globally routable unicast address (${refusal})`);
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
      // Port 0 names no port: no receiver listens there, and a socket asked for it fails every attempt.
      if (url.port === '0') throw new RefusedTarget('url must not have port 0');
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

/** Only the canonical forms a URL or a resolver yields: ipaddr.js alone would also read "127.1". */
function parseAddress(address: string): Address {
  if (net.isIP(address) !== 0) {
    try {
      return ipaddr.parse(address);
    } catch {
      // Refused below, like anything else that is not an address.
    }
  }
  throw new RefusedTarget(`${address} is not an IP address`);
}

/** Why `ip` may not receive webhooks, or null when it may. */
function refusalOf(ip: Address, allowed: readonly Network[]): string | null {
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) return refusalOf(ip.toIPv4Address(), allowed);
  if (allowed.some((network) => inNetwork(ip, network))) {
    if (!(ip instanceof ipaddr.IPv6 && inNetwork(ip, NAT64_WELL_KNOWN))) return null;
    const reached = nat64Destination(ip);
    const behind = refusalOf(reached, allowed);
    return behind === null ? null : `carries ${reached.toString()}: ${behind}`;
  }
  return rangeRefusal(ip);
}

/** The special range `ip` is in, or null when it is globally routable unicast. */
function rangeRefusal(ip: Address): string | null {
  const range = ip.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? range;
  if (ip instanceof ipaddr.IPv6 && !inNetwork(ip, GLOBAL_UNICAST)) return 'outside global unicast 2000::/3';
  return null;
}

function inNetwork(ip: Address, [network, bits]: Network): boolean {
  return ip.kind() === network.kind() && ip.match(network, bits);
}

/** RFC 6052 §2.2: with a /96 prefix the IPv4 address is the last 32 bits. */
function nat64Destination(ip: ipaddr.IPv6): ipaddr.IPv4 {
  return new ipaddr.IPv4(ip.toByteArray().slice(12));
}
