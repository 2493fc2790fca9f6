/** Whom a request came from behind a trusted reverse proxy (--trusted-proxy, wire/throttle.ts). */
import { describe, expect, test } from "bun:test";
import { clientBehind } from "../../src/wire/throttle";

const PROXY = ["127.0.0.1", "10.0.0.2"];

describe("clientBehind", () => {
  test("a trusted proxy's request is the client its X-Forwarded-For names, read from the right", () => {
    expect(clientBehind("127.0.0.1", "203.0.113.7", PROXY)).toBe("203.0.113.7");
    // A client that sends its own header: the proxy appends the address it heard from, and that one counts.
    expect(clientBehind("127.0.0.1", "198.51.100.1, 203.0.113.7", PROXY)).toBe("203.0.113.7");
    // Two trusted proxies in a row are passed over.
    expect(clientBehind("127.0.0.1", "203.0.113.7, 10.0.0.2", PROXY)).toBe("203.0.113.7");
    expect(clientBehind("::ffff:127.0.0.1", "2001:DB8::1", PROXY)).toBe("2001:db8::1");
  });

  test("anyone else is the TCP peer, whatever header it sends", () => {
    expect(clientBehind("198.51.100.9", "203.0.113.7", PROXY)).toBe("198.51.100.9");
    expect(clientBehind("127.0.0.1", "203.0.113.7", [])).toBe("127.0.0.1");
    expect(clientBehind("127.0.0.1", null, PROXY)).toBe("127.0.0.1");
    expect(clientBehind(undefined, "203.0.113.7", PROXY)).toBeUndefined();
  });

  test("a hop that is no address ends the reading: the proxy itself counts", () => {
    expect(clientBehind("127.0.0.1", "203.0.113.7, unknown", PROXY)).toBe("127.0.0.1");
    expect(clientBehind("127.0.0.1", "", PROXY)).toBe("127.0.0.1");
    // Only trusted proxies in the chain: the first of them is the client.
    expect(clientBehind("127.0.0.1", "10.0.0.2", PROXY)).toBe("10.0.0.2");
  });
});
