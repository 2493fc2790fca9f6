/**
 * A category's synced channels follow it (reference-gaps 2.6, "category edit also fires
 * one per synced child"): when the category's overwrites change by PUT, DELETE or an edit
 * replacing the list, each channel under it whose overwrites were the category's takes the
 * new ones, with one channel.updated after the category's; a channel that differs keeps
 * its own, and a refused change moves nothing.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { internalId, makeParley, recordEvents } from "../helpers";
import { DomainError } from "../../src/core";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const SEND = 1 << 11;
const ATTACH = 1 << 15;

const WORLD = {
  users: [{ name: "owner" }, { name: "keeper" }],
  guilds: [
    {
      name: "Club",
      owner: "owner",
      members: ["keeper"],
      roles: [{ name: "Keepers", permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS"], members: ["keeper"] }],
      channels: [
        { name: "Staff", type: 4 },
        // Synced: no overwrites, as the category has none.
        { name: "plans", parent: "Staff" },
        { name: "notes", parent: "Staff" },
        // Not synced: an overwrite of its own.
        { name: "secret", parent: "Staff", overwrites: [{ role: "@everyone", deny: ["ATTACH_FILES"] }] },
        { name: "general" },
      ],
    },
  ],
};

let p: Parley;
let w: SeedAnswer;
let guild: string;
const channel = (name: string) => internalId(p, w.guilds.Club.channels[name]);
const person = (name: string) => internalId(p, w.users[name].id);
const bitsOf = (name: string) =>
  p.core.guilds.overwrites(channel(name)).map((o) => ({ target: o.target_id, allow: o.allow, deny: o.deny }));

beforeEach(() => {
  p = makeParley();
  w = p.seed(WORLD);
  guild = internalId(p, w.guilds.Club.id);
});

describe("a category's synced channels follow it", () => {
  test("PUT on the category: its synced channels take the overwrite, after the category's update; the one that differs keeps its own", () => {
    const secretBefore = bitsOf("secret");
    const ev = recordEvents(p);
    p.core.channels.putOverwrite(person("owner"), channel("Staff"), guild, 0, 0, SEND);
    const wanted = [{ target: guild, allow: 0, deny: SEND }];
    expect(bitsOf("plans")).toEqual(wanted);
    expect(bitsOf("notes")).toEqual(wanted);
    expect(bitsOf("secret")).toEqual(secretBefore);
    expect(bitsOf("general")).toEqual([]);
    expect(ev.of("channel.updated").map((e) => e.channelId)).toEqual([channel("Staff"), channel("plans"), channel("notes")]);

    // Still synced, so the next change follows too; DELETE included.
    p.core.channels.putOverwrite(person("owner"), channel("Staff"), guild, 0, 0, SEND | ATTACH);
    expect(bitsOf("notes")).toEqual([{ target: guild, allow: 0, deny: SEND | ATTACH }]);
    p.core.channels.deleteOverwrite(person("owner"), channel("Staff"), guild);
    expect(bitsOf("plans")).toEqual([]);
    expect(bitsOf("notes")).toEqual([]);
  });

  test("an edit replacing the category's list carries its synced channels; a channel changed apart stops following", () => {
    p.core.channels.putOverwrite(person("owner"), channel("notes"), guild, 0, ATTACH, 0);
    p.core.channels.edit(person("keeper"), channel("Staff"), { overwrites: [{ targetId: guild, targetType: 0, allow: 0, deny: SEND }] });
    expect(bitsOf("plans")).toEqual([{ target: guild, allow: 0, deny: SEND }]);
    expect(bitsOf("notes")).toEqual([{ target: guild, allow: ATTACH, deny: 0 }]);
  });

  test("a change that writes the same bits, or a channel's own change, moves no other channel", () => {
    p.core.channels.putOverwrite(person("owner"), channel("Staff"), guild, 0, 0, SEND);
    const ev = recordEvents(p);
    p.core.channels.putOverwrite(person("owner"), channel("Staff"), guild, 0, 0, SEND);
    expect(ev.of("channel.updated").map((e) => e.channelId)).toEqual([channel("Staff")]);
    p.core.channels.putOverwrite(person("owner"), channel("plans"), guild, 0, 0, SEND | ATTACH);
    expect(bitsOf("notes")).toEqual([{ target: guild, allow: 0, deny: SEND }]);
    expect(bitsOf("Staff")).toEqual([{ target: guild, allow: 0, deny: SEND }]);
  });

  test("a refused change to the category changes no channel", () => {
    // The keeper holds neither ADMINISTRATOR nor VIEW_AUDIT_LOG: allowing it is refused.
    expect(() => p.core.channels.putOverwrite(person("keeper"), channel("Staff"), guild, 0, 1 << 7, 0)).toThrow(DomainError);
    expect(bitsOf("Staff")).toEqual([]);
    expect(bitsOf("plans")).toEqual([]);
  });
});
