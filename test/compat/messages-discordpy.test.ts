/**
 * A real discord.py 2.x bot (child process, REST only: the gateway is built separately)
 * sends, replies, edits, reacts, reads history, creates a channel, sets an overwrite and
 * deletes; the people's side (p.core) sees the results and the events are counted.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BASIC_WORLD, makeUnlimitedParley, recordEvents } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";
import { PERMISSIONS as P } from "../../src/core/permissions";

let p: Parley;
let w: SeedAnswer;
const uuid = (f: string) => p.api.flakes.uuid(f)!;

beforeAll(() => {
  p = makeUnlimitedParley();
  p.listen();
  const world = structuredClone(BASIC_WORLD) as any;
  world.guilds[0].roles.push({ name: "BotAdmin", permissions: ["MANAGE_CHANNELS", "MANAGE_ROLES", "MANAGE_MESSAGES"], members: ["EchoBot"] });
  w = p.seed(world);
});

afterAll(async () => {
  await p.stop();
});

test("discord.py: every call resolves and the people's side sees the result", async () => {
  const ev = recordEvents(p);
  const proc = Bun.spawn(
    ["/usr/bin/python3", `${import.meta.dir}/py/messages_bot.py`, p.api.urls.base, w.applications.EchoBot.token, w.guilds.Lab.channels.general, w.guilds.Lab.id, w.users.bob.id],
    { stdout: "pipe", stderr: "pipe" },
  );
  const timer = setTimeout(() => proc.kill(), 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`discord.py bot failed (${code}):\n${stderr}`);
  const out = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(out.sent).toEqual({ id: expect.any(String), content: "hello", embeds: 1, rows: 1 });
  expect(out.reply_type).toBe(19);
  expect(out.reply_ref).toBe(out.sent.id);
  expect(out.edited).toEqual({ content: "hello again", embeds: 1, edited: true });
  expect(out.history).toHaveLength(2);
  expect(out.history[1]).toBe(out.sent.id);
  expect(out.history_reactions).toEqual([["👍", 1, true]]);
  expect(out.created).toMatchObject({ name: "from-dpy", topic: "made by a bot" });
  expect(out.refused).toEqual({ status: 400, code: 50035 });
  const ow = p.core.guilds.overwrites(uuid(out.created.id));
  expect(ow).toEqual([{ channel_id: uuid(out.created.id), target_id: uuid(w.users.bob.id), target_type: 1, allow: P.MANAGE_MESSAGES, deny: P.SEND_MESSAGES }]);
  expect(p.core.messages.get(uuid(out.sent.id))).toBeNull();
  expect(ev.events.map((e) => e.type)).toEqual([
    "message.created",
    "message.created",
    "message.updated",
    "reaction.added",
    "channel.created",
    "channel.updated",
    "message.deleted",
    "message.deleted",
  ]);
}, 90_000);
