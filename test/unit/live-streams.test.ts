import { expect, test } from "bun:test";
import { eventFrame, RING_SIZE, Stream, Streams, STREAM_TTL_MS, type LiveSocket } from "../../src/clientapi/live-streams";
import { SwitchableClock } from "../../src/core/clock";

function socket(sent: string[]): LiveSocket {
  return { sendText: (f) => sent.push(f), close() {}, subscribe() {}, unsubscribe() {} };
}

test("a stream keeps its person's events (server numbers, with gaps) and replays those after a number while it holds them all", () => {
  const sent: string[] = [];
  const s = new Stream("s1", "u1", 10);
  s.conns.add({ id: 1, ws: socket(sent), state: "open", userId: "u1", sessionId: "s1", stream: s, lastFrame: 0, timer: null });
  s.push(11, eventFrame(11, "message.created", '{"n":0}'));
  s.record(13, eventFrame(13, "message.created", '{"n":1}'));
  s.push(17, eventFrame(17, "message.created", '{"n":2}'));
  expect(sent.map((f) => JSON.parse(f).seq)).toEqual([11, 17]);
  expect(s.after(10, 17)!.map((f) => JSON.parse(f).seq)).toEqual([11, 13, 17]);
  expect(s.after(12, 17)!.map((f) => JSON.parse(f).seq)).toEqual([13, 17]);
  expect(s.after(17, 17)).toEqual([]);
  // Before the stream began, or beyond what the server has numbered: start over.
  expect(s.after(9, 17)).toBeNull();
  expect(s.after(18, 17)).toBeNull();
  let seq = 17;
  for (let i = 0; i < RING_SIZE * 3; i++) s.record(++seq, eventFrame(seq, "typing.started", "{}"));
  // Too far behind: the client must start over rather than miss events silently.
  expect(s.after(17, seq)).toBeNull();
  expect(s.after(seq - RING_SIZE, seq)?.length).toBe(RING_SIZE);
  expect(JSON.parse(s.after(seq - 1, seq)![0]).seq).toBe(seq);
});

test("a stream without connections is kept for a resume, then forgotten", () => {
  const clock = new SwitchableClock();
  clock.advance(0);
  const streams = new Streams(clock);
  const s = streams.open("u1", 0);
  streams.release(s);
  clock.advance(STREAM_TTL_MS - 1);
  expect(streams.open("u1", 5)).toBe(s);
  streams.release(s);
  clock.advance(STREAM_TTL_MS);
  expect(streams.of("u1")).toBeUndefined();
  expect(streams.open("u1", 5)).not.toBe(s);
});
