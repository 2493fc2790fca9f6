/**
 * The harness's long polls over a real socket: GET /events may wait up to 30 s
 * (docs/harness.md), longer than Bun's idle timeout for a request that has sent nothing
 * yet (10 s), which would cut the connection with no answer at all.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeParley } from "../helpers";
import { seedGatewayWorld } from "./client";

let p: Parley;

beforeEach(() => {
  p = makeParley();
  seedGatewayWorld(p);
  p.listen();
});

afterEach(async () => {
  await p.stop();
});

test("GET /events waiting longer than the server's idle timeout answers when its wait ends", async () => {
  const base = `${p.api.urls.base}/api/harness/v1`;
  const { events } = (await (await fetch(`${base}/cursor`)).json()) as { events: string };
  // Nothing happens while it waits: the answer is the empty page, not a dropped connection.
  const res = await fetch(`${base}/events?after=${events}&wait_ms=12000`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ events: [], cursor: events });
}, 30_000);
