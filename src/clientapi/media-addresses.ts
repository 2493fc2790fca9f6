/**
 * Which addresses the image proxy may connect to (docs/security.md, finding 10): public
 * ones only, unless the operator allows more. Private, loopback, link-local, shared
 * (CGNAT), multicast, documentation and reserved blocks are refused, and so is an IPv6
 * address that carries one of those IPv4 addresses inside it (mapped, NAT64, 6to4).
 */
import { isIP } from "node:net";

interface Block {
  v6: boolean;
  base: bigint;
  bits: number;
}

/** An address as a number: 32 bits for IPv4, 128 for IPv6; null when it is neither. */
export function parseAddress(raw: string): { v6: boolean; n: bigint } | null {
  const a = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(a);
  if (family === 4) return { v6: false, n: v4(a) };
  if (family !== 6) return null;
  let head = a;
  let tail: bigint[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const n = v4(dotted[1]);
    tail = [n >> 16n, n & 0xffffn];
    head = a.slice(0, -dotted[1].length).replace(/:$/, "") || ":";
    if (head === ":") head = "::";
  }
  const [left, right] = head.includes("::") ? head.split("::") : [head, null];
  const words = (s: string) => (s ? s.split(":").map((w) => BigInt(parseInt(w, 16))) : []);
  const l = words(left);
  const r = [...(right === null ? [] : words(right)), ...tail];
  const fill = right === null ? [] : new Array<bigint>(8 - l.length - r.length).fill(0n);
  const all = right === null ? [...l, ...tail] : [...l, ...fill, ...r];
  return { v6: true, n: all.reduce((acc, w) => (acc << 16n) | w, 0n) };
}

function v4(a: string): bigint {
  return a.split(".").reduce((acc, o) => (acc << 8n) | BigInt(+o), 0n);
}

/** A block written `address/bits` (or one address). */
export function parseBlock(raw: string): Block | null {
  const [addr, bits] = raw.split("/");
  const a = parseAddress(addr);
  if (!a) return null;
  const width = a.v6 ? 128 : 32;
  return { v6: a.v6, base: a.n, bits: bits === undefined ? width : +bits };
}

function inBlock(v6: boolean, n: bigint, b: Block): boolean {
  if (v6 !== b.v6) return false;
  const shift = BigInt((v6 ? 128 : 32) - b.bits);
  return n >> shift === b.base >> shift;
}

const REFUSED = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/96",
  "::1/128",
  "100::/64",
  "2001::/23",
  "2001:db8::/32",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
].map((b) => parseBlock(b)!);

/** IPv6 blocks whose addresses carry an IPv4 address: mapped (last 32 bits), NAT64 (last 32), 6to4 (bits 16 to 48). */
const CARRIERS: { block: Block; v4: (n: bigint) => bigint }[] = [
  { block: parseBlock("::ffff:0:0/96")!, v4: (n) => n & 0xffffffffn },
  { block: parseBlock("64:ff9b::/96")!, v4: (n) => n & 0xffffffffn },
  { block: parseBlock("2002::/16")!, v4: (n) => (n >> 80n) & 0xffffffffn },
];

/** The operator's allowances, read once: `allow` holds addresses and CIDR blocks (src/config). */
export class AddressRules {
  private readonly allowed: Block[];

  constructor(allow: string[]) {
    this.allowed = allow.map((a) => parseBlock(a)).filter((b): b is Block => b !== null);
  }

  /** Whether the proxy may connect to `address` (an IP address, never a name). */
  permits(address: string): boolean {
    const a = parseAddress(address);
    if (!a) return false;
    if (this.allowed.some((b) => inBlock(a.v6, a.n, b))) return true;
    if (a.v6) {
      const carrier = CARRIERS.find((c) => inBlock(true, a.n, c.block));
      if (carrier) return this.permits(v4text(carrier.v4(a.n)));
    }
    return !REFUSED.some((b) => inBlock(a.v6, a.n, b));
  }
}

function v4text(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join(".");
}
