// A listening server that has been busy and then goes a whole second without a request
// collects its garbage and has the database hand back its spare cache
// (src/lifecycle.ts): the resident memory a load grew returns (scripts/bench/paths.ts).
import { afterEach, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeUnlimitedParley } from "../helpers";

let p: Parley | null = null;

afterEach(async () => {
  await p?.stop();
  p = null;
});

test("after a busy spell and a quiet second, the database hands back its spare cache", async () => {
  p = makeUnlimitedParley();
  let released = 0;
  const release = p.store.releaseMemory.bind(p.store);
  p.store.releaseMemory = () => {
    released++;
    release();
  };
  p.listen();
  const url = `http://127.0.0.1:${p.server!.port}/api/v10/gateway`;
  // A few requests are not a busy spell: nothing is collected for them.
  for (let i = 0; i < 10; i++) await (await fetch(url)).arrayBuffer();
  await Bun.sleep(2500);
  expect(released).toBe(0);

  for (let i = 0; i < 1100; i += 50) await Promise.all(Array.from({ length: 50 }, async () => (await fetch(url)).arrayBuffer()));
  const deadline = Date.now() + 10_000;
  while (released === 0 && Date.now() < deadline) await Bun.sleep(100);
  expect(released).toBe(1);
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
}, 30_000);
