/**
 * A key backup's passphrase is judged in the browser (src/web/strength.ts) by the rule
 * the server applies to passwords (src/core/passwords.ts): the two give the same verdict,
 * in the same words, on the same secrets; and twelve of one letter, long enough for the
 * backup's length rule, are too easy to guess. The browser's dictionaries are the ones
 * the server serves it.
 */
import { describe, expect, test } from "bun:test";
import { guessProblem, type Dictionaries } from "../../src/web/strength";
import { passwordProblem } from "../../src/core/passwords";
import { DICTIONARIES_PATH } from "../../src/web/paths";
import { makeParley } from "../helpers";

const common = async (): Promise<Dictionaries> => {
  const { adjacencyGraphs, dictionary } = await import("@zxcvbn-ts/language-common");
  return { adjacencyGraphs, dictionary };
};

describe("a passphrase's strength", () => {
  test("the browser's verdict is the server's verdict on a password, word for word", async () => {
    const samples: [string, string][] = [
      ["a".repeat(12), "alice"],
      ["password1234", "alice"],
      ["qwertyuiop12", "alice"],
      ["alice2024alice", "alice"],
      ["correct horse battery", "alice"],
      ["horse staple battery correct 42", "bob"],
      ["Tr0ub4dor&3xyz", "bob"],
      ["1234567890ab", "bob"],
      ["january 2 1990", "bob"],
      ["zebra-lantern-quiet-moss", "carol"],
    ];
    const verdicts: [string, string | null][] = [];
    for (const [secret, username] of samples) {
      const mine = await guessProblem(secret, username, common);
      expect({ secret, verdict: mine }).toEqual({ secret, verdict: passwordProblem(secret, username) });
      verdicts.push([secret, mine]);
    }
    // Both kinds of verdict are among the samples, so the comparison compares something.
    expect(verdicts.filter(([, v]) => v === null).length).toBeGreaterThan(1);
    expect(verdicts.filter(([, v]) => v !== null).length).toBeGreaterThan(1);
    expect(await guessProblem("a".repeat(12), "bob", common)).toMatch(
      /^Too easy to guess\. Repeated characters like "aaa" are easy to guess\./,
    );
  });

  test("the server serves the browser the dictionaries it checks passwords against", async () => {
    const p = makeParley();
    p.listen();
    try {
      const res = await fetch(`${p.api.urls.base}${DICTIONARIES_PATH}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      const served = (await res.json()) as Dictionaries;
      expect(served).toEqual(JSON.parse(JSON.stringify(await common())));
      // What the browser makes of them is what the server makes of its own.
      expect(await guessProblem("password1234", "x", async () => served)).toBe(passwordProblem("password1234", "x"));
    } finally {
      await p.stop();
    }
  });
});
