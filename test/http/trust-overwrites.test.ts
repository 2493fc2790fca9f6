/**
 * Channel overwrites on every surface (security finding 2; reference-gaps 1.3 "Overwrite
 * editing"): an actor allows or denies only bits it holds (at server level or in the
 * channel), unless it holds MANAGE_ROLES through an overwrite in that channel; only
 * administrators (and the owner) set MANAGE_ROLES in an overwrite. A refusal is
 * 403 50001 and changes nothing. One fresh TRUST_WORLD per row (test/scenarios.ts).
 */
import { expect } from "bun:test";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { PERMISSIONS as P } from "../../src/core/permissions";
import { scenarios, type Scenario, type ScenarioContext } from "../scenarios";

export const TRUST_WORLD = {
  users: [{ name: "alice" }, { name: "bob" }, { name: "carol" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "erin"],
      roles: [
        { name: "Keeper", permissions: ["MANAGE_ROLES"], members: ["RoleBot", "carol"] },
        { name: "Builder", permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS"], members: ["BuildBot"] },
        { name: "Admin", permissions: ["ADMINISTRATOR"], members: ["AdminBot"] },
      ],
      channels: [
        { name: "general" },
        // erin holds MANAGE_ROLES here only, through her own overwrite.
        { name: "den", overwrites: [{ user: "erin", allow: ["MANAGE_ROLES"] }] },
        // bob may manage messages here: an overwrite with a bit RoleBot does not hold.
        { name: "staff", overwrites: [{ user: "bob", allow: ["MANAGE_MESSAGES"] }] },
        // RoleBot holds MANAGE_MESSAGES in this channel only.
        { name: "desk", overwrites: [{ user: "RoleBot", allow: ["MANAGE_MESSAGES"] }] },
      ],
    },
  ],
  applications: ["RoleBot", "BuildBot", "AdminBot"].map((name) => ({ name, owner: "alice", intents: ["GUILDS"], install: ["Lab"] })),
};

const bits = (n: number) => String(n);

/** The overwrites of a channel, by target id, as the store holds them. */
function overwritesOf(ctx: ScenarioContext, channel: string) {
  const id = ctx.fill(`{internal:channel:${channel}}`);
  return ctx.p.core.guilds.overwrites(id).map((o) => ({ target: o.target_id, allow: o.allow, deny: o.deny }));
}

/** A refused row: 403 50001, no event, and the channel's overwrites exactly as before. */
function refused(row: Omit<Scenario, "status" | "code" | "events">, channel: string): Scenario {
  let before: unknown;
  return {
    ...row,
    status: 403,
    code: 50001,
    events: { "*": 0 },
    setup: async (ctx) => {
      const vars = await row.setup?.(ctx);
      before = overwritesOf(ctx, channel);
      return vars;
    },
    after: async (ctx) => {
      expect(overwritesOf(ctx, channel)).toEqual(before as never);
      await row.after?.(ctx);
    },
  };
}

const table = { world: TRUST_WORLD, config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } } };

scenarios(
  "overwrites through the bot API: only bits the actor holds",
  [
    refused(
      {
        name: "a bot with only MANAGE_ROLES cannot give itself ADMINISTRATOR in a channel",
        actor: "RoleBot",
        method: "PUT",
        path: "/channels/{channel:general}/permissions/{bot:RoleBot}",
        body: { type: 1, allow: "8" },
        contains: ["permissions you do not hold"],
        after: async (ctx) => {
          // Nor does it then hold anything it did not hold before.
          const bot = ctx.fill("{internal:bot:RoleBot}");
          const perms = ctx.p.core.guilds.permissions(ctx.fill("{internal:guild:Lab}"), bot, ctx.fill("{internal:channel:general}"));
          expect(perms & P.ADMINISTRATOR).toBe(0);
          expect(perms & P.MANAGE_MESSAGES).toBe(0);
        },
      },
      "general",
    ),
    refused(
      {
        name: "nor allow @everyone a bit it lacks (MANAGE_MESSAGES)",
        actor: "RoleBot",
        method: "PUT",
        path: "/channels/{channel:general}/permissions/{role:@everyone}",
        body: { type: 0, allow: bits(P.MANAGE_MESSAGES) },
      },
      "general",
    ),
    refused(
      {
        name: "nor deny a bit it lacks",
        actor: "RoleBot",
        method: "PUT",
        path: "/channels/{channel:general}/permissions/{user:carol}",
        body: { type: 1, deny: bits(P.KICK_MEMBERS) },
      },
      "general",
    ),
    refused(
      {
        name: "MANAGE_ROLES in an overwrite is for administrators, even to one who holds it",
        actor: "RoleBot",
        method: "PUT",
        path: "/channels/{channel:general}/permissions/{user:carol}",
        body: { type: 1, allow: bits(P.MANAGE_ROLES) },
        contains: ["administrators"],
      },
      "general",
    ),
    refused(
      {
        name: "deleting an overwrite takes its bits away: not with a bit the actor lacks",
        actor: "RoleBot",
        method: "DELETE",
        path: "/channels/{channel:staff}/permissions/{user:bob}",
      },
      "staff",
    ),
    refused(
      {
        name: "channel create with permission_overwrites: only held bits",
        actor: "BuildBot",
        method: "POST",
        path: "/guilds/{guild:Lab}/channels",
        body: { name: "mine", permission_overwrites: [{ id: "{bot:BuildBot}", type: 1, allow: "8" }] },
        after: ({ p, fill }) => expect(p.core.guilds.channels(fill("{internal:guild:Lab}")).map((c) => c.name)).not.toContain("mine"),
      },
      "general",
    ),
    refused(
      {
        name: "channel create with MANAGE_ROLES in an overwrite: administrators only",
        actor: "BuildBot",
        method: "POST",
        path: "/guilds/{guild:Lab}/channels",
        body: { name: "mine", permission_overwrites: [{ id: "{role:Keeper}", type: 0, allow: bits(P.MANAGE_ROLES) }] },
      },
      "general",
    ),
    refused(
      {
        name: "channel edit replacing overwrites: only held bits",
        actor: "BuildBot",
        method: "PATCH",
        path: "/channels/{channel:general}",
        body: { name: "renamed", permission_overwrites: [{ id: "{bot:BuildBot}", type: 1, allow: "8" }] },
        after: ({ p, fill }) => expect(p.core.guilds.channel(fill("{internal:channel:general}"))!.name).toBe("general"),
      },
      "general",
    ),
    refused(
      {
        name: "a target listed twice is judged by every entry (the last one is written)",
        actor: "BuildBot",
        method: "PATCH",
        path: "/channels/{channel:general}",
        body: {
          permission_overwrites: [
            { id: "{bot:BuildBot}", type: 1, allow: "0" },
            { id: "{bot:BuildBot}", type: 1, allow: "8" },
          ],
        },
      },
      "general",
    ),
    refused(
      {
        name: "channel edit that drops an overwrite with a bit the actor lacks",
        actor: "BuildBot",
        method: "PATCH",
        path: "/channels/{channel:staff}",
        body: { permission_overwrites: [] },
      },
      "staff",
    ),
    {
      name: "a bit the actor holds through @everyone (SEND_MESSAGES) may be allowed",
      actor: "RoleBot",
      method: "PUT",
      path: "/channels/{channel:general}/permissions/{user:carol}",
      body: { type: 1, allow: bits(P.SEND_MESSAGES) },
      status: 204,
      events: { "channel.updated": 1, "*": 0 },
    },
    {
      name: "a bit the actor holds in this channel only may be allowed there",
      actor: "RoleBot",
      method: "PUT",
      path: "/channels/{channel:desk}/permissions/{role:@everyone}",
      body: { type: 0, allow: bits(P.MANAGE_MESSAGES) },
      status: 204,
      events: { "channel.updated": 1, "*": 0 },
    },
    {
      name: "editing an overwrite judges only the bits that change",
      actor: "RoleBot",
      method: "PUT",
      path: "/channels/{channel:staff}/permissions/{user:bob}",
      body: { type: 1, allow: bits(P.MANAGE_MESSAGES | P.SEND_MESSAGES) },
      status: 204,
      events: { "channel.updated": 1, "*": 0 },
    },
    {
      name: "an administrator sets MANAGE_ROLES and ADMINISTRATOR in overwrites",
      actor: "AdminBot",
      method: "PUT",
      path: "/channels/{channel:general}/permissions/{user:carol}",
      body: { type: 1, allow: bits(P.MANAGE_ROLES | P.ADMINISTRATOR) },
      status: 204,
      events: { "channel.updated": 1, "*": 0 },
    },
    {
      name: "channel create with held bits in its overwrites passes",
      actor: "BuildBot",
      method: "POST",
      path: "/guilds/{guild:Lab}/channels",
      body: { name: "quiet", permission_overwrites: [{ id: "{role:@everyone}", type: 0, deny: bits(P.SEND_MESSAGES) }] },
      status: 200,
      events: { "channel.created": 1, "*": 0 },
    },
  ],
  table,
);

scenarios(
  "overwrites through the people's API: the same rules",
  [
    refused(
      {
        name: "a person with MANAGE_ROLES cannot allow ADMINISTRATOR",
        actor: "carol",
        method: "PUT",
        path: "/channels/{channel:general}/overwrites/{user:carol}",
        body: { type: "member", allow: ["ADMINISTRATOR"] },
      },
      "general",
    ),
    refused(
      {
        name: "nor set MANAGE_ROLES in an overwrite, though she holds it",
        actor: "carol",
        method: "PUT",
        path: "/channels/{channel:general}/overwrites/{role:@everyone}",
        body: { type: "role", allow: ["MANAGE_ROLES"] },
      },
      "general",
    ),
    refused(
      {
        name: "nor delete an overwrite carrying a bit she lacks",
        actor: "carol",
        method: "DELETE",
        path: "/channels/{channel:staff}/overwrites/{user:bob}",
      },
      "staff",
    ),
    refused(
      {
        name: "MANAGE_ROLES through an overwrite is not a right to set MANAGE_ROLES",
        actor: "erin",
        method: "PUT",
        path: "/channels/{channel:den}/overwrites/{user:bob}",
        body: { type: "member", allow: ["MANAGE_ROLES"] },
      },
      "den",
    ),
    refused(
      {
        name: "nor a right outside its channel",
        actor: "erin",
        method: "PUT",
        path: "/channels/{channel:general}/overwrites/{user:bob}",
        body: { type: "member", allow: ["SEND_MESSAGES"] },
      },
      "general",
    ),
    {
      name: "MANAGE_ROLES through an overwrite in the channel: any other bit there",
      actor: "erin",
      method: "PUT",
      path: "/channels/{channel:den}/overwrites/{user:bob}",
      body: { type: "member", allow: ["MANAGE_MESSAGES", "KICK_MEMBERS"] },
      status: 200,
      events: { "channel.updated": 1, "*": 0 },
    },
    {
      name: "the owner deletes any overwrite",
      actor: "alice",
      method: "DELETE",
      path: "/channels/{channel:den}/overwrites/{user:erin}",
      status: 200,
      events: { "channel.updated": 1, "*": 0 },
      after: ({ res }) => expect(res.body.overwrites).toEqual([]),
    },
  ],
  table,
);
