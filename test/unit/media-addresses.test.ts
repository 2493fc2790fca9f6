/** Which addresses the image proxy may connect to (src/clientapi/media-addresses.ts). */
import { describe, expect, test } from "bun:test";
import { AddressRules, parseAddress } from "../../src/clientapi/media-addresses";

describe("the image proxy's address rules", () => {
  test("parse IPv4 and IPv6, dotted tails and zones included", () => {
    expect(parseAddress("127.0.0.1")).toEqual({ v6: false, n: 0x7f000001n });
    expect(parseAddress("::1")).toEqual({ v6: true, n: 1n });
    expect(parseAddress("[::ffff:127.0.0.1]")).toEqual({ v6: true, n: 0xffff7f000001n });
    expect(parseAddress("fe80::1%eth0")).toEqual({ v6: true, n: (0xfe80n << 112n) | 1n });
    expect(parseAddress("1:2:3:4:5:6:7:8")!.n).toBe(0x00010002000300040005000600070008n);
    expect(parseAddress("example.com")).toBeNull();
  });

  test("refuse private, loopback, link-local, shared, multicast and reserved addresses, and IPv6 that carries one", () => {
    const rules = new AddressRules([]);
    for (const a of [
      "0.0.0.0",
      "10.0.0.1",
      "100.64.1.1",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "192.0.2.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "2001:db8::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2002:7f00:1::",
      "::127.0.0.1",
    ])
      expect({ a, ok: rules.permits(a) }).toEqual({ a, ok: false });
  });

  test("permit public addresses, and what the operator allows by address or block", () => {
    expect(
      ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"].map((a) =>
        new AddressRules([]).permits(a),
      ),
    ).toEqual([true, true, true, true, true, true]);
    const allowed = new AddressRules(["127.0.0.1", "10.1.0.0/16", "fd00::/8"]);
    expect(
      ["127.0.0.1", "127.0.0.2", "10.1.2.3", "10.2.0.1", "fd00::5", "fc00::5", "::ffff:127.0.0.1"].map((a) => allowed.permits(a)),
    ).toEqual([true, false, true, false, true, false, true]);
  });
});
