import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

/** Where a delivery may connect: the URL plus the address that was checked, so DNS cannot change it afterwards. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefused";
  }
}

const subnets = (family: "ipv4" | "ipv6", list: readonly (readonly [string, number])[]) => {
  const blockList = new BlockList();
  for (const [network, prefix] of list) blockList.addSubnet(network, prefix, family);
  return blockList;
};

const refusedV4 = subnets("ipv4", [
  ["0.0.0.0", 8], // "this network", incl. the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
]);

/**
 * IPv6 is an allow-list: only global unicast (2000::/3) passes, which leaves out the unspecified and
 * loopback addresses, discard (100::/64), local-use NAT64 (64:ff9b:1::/48), unique-local (fc00::/7,
 * incl. the fd00:ec2::254 metadata address), link-local, site-local and multicast. Within it, these
 * special-purpose ranges are refused too.
 */
const globalUnicastV6 = subnets("ipv6", [["2000::", 3]]);
const refusedGlobalV6 = subnets("ipv6", [
  // IETF protocol assignments: benchmarking 2001:2::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28 and
  // others. Teredo (2001::/32) is in it too, but is judged by the IPv4 addresses it carries, below.
  ["2001::", 23],
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
]);

/** The 8 hextets of an IPv6 address (zone ids dropped, an embedded dotted IPv4 tail converted). */
function ipv6Hextets(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((h) => parseInt(h, 16));
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
const allZero = (hextets: number[]) => hextets.every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 one carries, which the packets end up at: IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, and
 * Teredo 2001::/32 (its server, and its client with the bits inverted). Empty for any other address.
 */
function embeddedIpv4(address: string): string[] {
  const h = ipv6Hextets(address);
  const tail = ipv4Of(h[6]!, h[7]!);
  if (allZero(h.slice(0, 5)) && h[5] === 0xffff) return [tail];
  if (allZero(h.slice(0, 4)) && h[4] === 0xffff && h[5] === 0) return [tail];
  if (allZero(h.slice(0, 6))) return [tail];
  if (h[0] === 0x64 && h[1] === 0xff9b && allZero(h.slice(2, 6))) return [tail];
  if (h[0] === 0x2002) return [ipv4Of(h[1]!, h[2]!)];
  if (h[0] === 0x2001 && h[1] === 0) return [ipv4Of(h[2]!, h[3]!), ipv4Of(h[6]! ^ 0xffff, h[7]! ^ 0xffff)];
  return [];
}

/**
 * True for every address that is not public: loopback, private, link-local, metadata, unspecified,
 * multicast, documentation and reserved ones, and IPv6 addresses carrying such an IPv4 address.
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4.check(address, "ipv4");
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4.length > 0) return v4.some((a) => refusedV4.check(a, "ipv4"));
  const bare = address.split("%")[0]!;
  return !globalUnicastV6.check(bare, "ipv6") || refusedGlobalV6.check(bare, "ipv6");
}

/** Problems with the URL itself (scheme, credentials), without looking the host up. */
export function urlProblem(text: string, allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute URL";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return allowPrivate ? "must use https:// or http://" : "must use https://";
  if (url.username || url.password) return "must not contain credentials";
  if (!url.hostname) return "must name a host";
  if (url.hash) return "must not contain a fragment";
  return null;
}

function bareHost(url: URL): string {
  // IPv6 literals come bracketed in URL.hostname.
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves the URL's host and checks every address it resolves to. Called when an integration is saved
 * and again before each attempt, and the attempt connects to the address checked here (DNS rebinding).
 */
export async function checkTarget(text: string, allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS): Promise<CheckedTarget> {
  const problem = urlProblem(text, allowPrivate);
  if (problem) throw new TargetRefused(`URL ${problem}`);
  const url = new URL(text);
  const host = bareHost(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(`URL host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`URL host ${host} does not resolve`);
  if (!allowPrivate && addresses.some((a) => isRefusedAddress(a.address))) {
    throw new TargetRefused(`URL host ${host} resolves to a loopback, private, link-local or metadata address`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
