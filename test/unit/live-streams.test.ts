import { expect, test } from "bun:test";
import { RING_SIZE, Stream, Streams, STREAM_TTL_MS } from "../../src/clientapi/live-streams";
import { SwitchableClock } from "../../src/core/clock";

test("a stream numbers its events and replays those after a seq while its ring holds them all", () => {
  const sent: string[] = [];
  const s = new Stream("s1", "u1");
  s.conns.add({ id: 1, ws: { sendText: (f: string) => sent.push(f), close() {} }, state: "open", userId: "u1", stream: s, lastFrame: 0, timer: null });
  for (let i = 0; i < 3; i++) s.push("message.created", JSON.stringify({ n: i }));
  expect(sent.map((f) => JSON.parse(f))).toEqual([0, 1, 2].map((n) => ({ op: "event", seq: n + 1, type: "message.created", data: { n } })));
  expect(s.after(1)).toEqual(sent.slice(1));
  expect(s.after(3)).toEqual([]);
  expect(s.after(4)).toBeNull();
  expect(s.after(-1)).toBeNull();
  for (let i = 3; i < RING_SIZE * 3; i++) s.push("typing.started", "{}");
  // Too far behind: the client must start over rather than miss events silently.
  expect(s.after(1)).toBeNull();
  expect(s.after(s.seq - RING_SIZE)?.length).toBe(RING_SIZE);
  expect(JSON.parse(s.after(s.seq - 1)![0]).seq).toBe(s.seq);
});

test("a stream without connections is kept for a resume, then forgotten", () => {
  const clock = new SwitchableClock();
  clock.advance(0);
  const streams = new Streams(clock);
  const s = streams.open("u1");
  streams.release(s);
  clock.advance(STREAM_TTL_MS - 1);
  expect(streams.open("u1")).toBe(s);
  streams.release(s);
  clock.advance(STREAM_TTL_MS);
  expect(streams.of("u1")).toBeUndefined();
  expect(streams.open("u1")).not.toBe(s);
});
