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

const refusedV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", incl. the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  refusedV4.addSubnet(network, prefix, "ipv4");
}

const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, incl. the fd00:ec2::254 metadata address
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  refusedV6.addSubnet(network, prefix, "ipv6");
}

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

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const h = ipv6Hextets(address);
  const firstFiveZero = h.slice(0, 5).every((x) => x === 0);
  const mapped = firstFiveZero && h[5] === 0xffff;
  const compatible = firstFiveZero && h[5] === 0 && (h[6] !== 0 || h[7]! > 1);
  const nat64 = h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0);
  if (!mapped && !compatible && !nat64) return null;
  return [h[6]! >> 8, h[6]! & 0xff, h[7]! >> 8, h[7]! & 0xff].join(".");
}

/** True for loopback, private, link-local, metadata, unspecified, multicast and reserved addresses. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4.check(address, "ipv4");
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return refusedV4.check(v4, "ipv4");
  return refusedV6.check(address.split("%")[0]!, "ipv6");
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
