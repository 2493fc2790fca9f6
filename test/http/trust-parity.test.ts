/**
 * One checked operation per moderation action (security finding 11): each action runs
 * once through the bot API as a bot and once through the people's API as a person
 * holding the same role, each on a fresh world, and both must publish the same domain
 * events and write the same audit entries (ids named by what they are, the actor left
 * out). A person's message delete through the harness joins the last comparison.
 */
import { describe, expect, test } from "bun:test";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { recordEvents } from "../helpers";
import { runScenario, type Scenario, type ScenarioContext } from "../scenarios";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave", "erin"],
      roles: [
        { name: "Low", permissions: [], members: ["carol"] },
        { name: "Low2", permissions: [] },
        {
          name: "Staff",
          permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS", "KICK_MEMBERS", "BAN_MEMBERS", "MANAGE_MESSAGES", "SEND_MESSAGES"],
          members: ["bob", "StaffBot"],
        },
      ],
      channels: [{ name: "general", overwrites: [{ user: "dave", deny: ["SEND_MESSAGES"] }] }, { name: "old" }],
    },
  ],
  applications: [{ name: "StaffBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] }],
};

/** The same action as each surface spells it. */
interface Action {
  name: string;
  bot: Pick<Scenario, "method" | "path" | "body" | "headers" | "status">;
  person: Pick<Scenario, "method" | "path" | "body" | "status">;
  /** A third door: the harness playing the person (where it acts as one). */
  harness?: Pick<Scenario, "method" | "path" | "status">;
  /** State the action needs, made before anything is recorded; answers placeholder values. */
  prepare?(ctx: ScenarioContext): Record<string, string> | void;
}

/** carol's message in #general, made as carol: {msg} (snowflake) and {msgId} (internal). */
const carolSays = ({ p, fill }: ScenarioContext) => {
  const m = p.core.messages.send(fill("{internal:user:carol}"), fill("{internal:channel:general}"), { content: "buy cheap stuff" });
  return { msg: p.api.flakes.of(m.id), msgId: m.id };
};

const ACTIONS: Action[] = [
  {
    name: "role create",
    bot: { method: "POST", path: "/guilds/{guild:Lab}/roles", body: { name: "Helpers", permissions: "2", color: 255 }, status: 200 },
    person: {
      method: "POST",
      path: "/guilds/{guild:Lab}/roles",
      body: { name: "Helpers", permissions: ["KICK_MEMBERS"], color: 255 },
      status: 200,
    },
  },
  {
    name: "role edit",
    bot: { method: "PATCH", path: "/guilds/{guild:Lab}/roles/{role:Low}", body: { name: "Lower", hoist: true }, status: 200 },
    person: { method: "PATCH", path: "/guilds/{guild:Lab}/roles/{role:Low}", body: { name: "Lower", hoist: true }, status: 200 },
  },
  {
    name: "role delete",
    bot: { method: "DELETE", path: "/guilds/{guild:Lab}/roles/{role:Low}", status: 204 },
    person: { method: "DELETE", path: "/guilds/{guild:Lab}/roles/{role:Low}", status: 204 },
  },
  {
    name: "role reorder",
    bot: { method: "PATCH", path: "/guilds/{guild:Lab}/roles", body: [{ id: "{role:Low}", position: 2 }], status: 200 },
    person: { method: "PATCH", path: "/guilds/{guild:Lab}/roles", body: [{ id: "{role:Low}", position: 2 }], status: 200 },
  },
  {
    name: "member role add",
    bot: { method: "PUT", path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Low2}", status: 204 },
    person: { method: "PUT", path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Low2}", status: 204 },
  },
  {
    name: "member role remove",
    bot: { method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Low}", status: 204 },
    person: { method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Low}", status: 204 },
  },
  {
    name: "channel create",
    bot: { method: "POST", path: "/guilds/{guild:Lab}/channels", body: { name: "plans", topic: "what next" }, status: 200 },
    person: { method: "POST", path: "/guilds/{guild:Lab}/channels", body: { name: "plans", topic: "what next" }, status: 200 },
  },
  {
    name: "channel edit",
    bot: {
      method: "PATCH",
      path: "/channels/{channel:general}",
      body: { name: "chat", topic: "anything", rate_limit_per_user: 5 },
      status: 200,
    },
    person: {
      method: "PATCH",
      path: "/channels/{channel:general}",
      body: { name: "chat", topic: "anything", rate_limit_per_user: 5 },
      status: 200,
    },
  },
  {
    name: "channel delete",
    bot: { method: "DELETE", path: "/channels/{channel:old}", status: 200 },
    person: { method: "DELETE", path: "/channels/{channel:old}", status: 204 },
  },
  {
    name: "overwrite put",
    bot: { method: "PUT", path: "/channels/{channel:general}/permissions/{user:carol}", body: { type: 1, deny: "2048" }, status: 204 },
    person: {
      method: "PUT",
      path: "/channels/{channel:general}/overwrites/{user:carol}",
      body: { type: "member", deny: ["SEND_MESSAGES"] },
      status: 200,
    },
  },
  {
    name: "overwrite delete",
    bot: { method: "DELETE", path: "/channels/{channel:general}/permissions/{user:dave}", status: 204 },
    person: { method: "DELETE", path: "/channels/{channel:general}/overwrites/{user:dave}", status: 200 },
  },
  {
    name: "kick",
    bot: { method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:carol}", headers: { "X-Audit-Log-Reason": "spam" }, status: 204 },
    person: { method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:carol}", body: { reason: "spam" }, status: 204 },
  },
  {
    name: "ban",
    prepare: carolSays,
    bot: { method: "PUT", path: "/guilds/{guild:Lab}/bans/{user:carol}", body: { delete_message_seconds: 3600 }, status: 204 },
    person: { method: "PUT", path: "/guilds/{guild:Lab}/bans/{user:carol}", body: { delete_message_seconds: 3600 }, status: 204 },
  },
  {
    name: "unban",
    prepare: ({ p, fill }) =>
      p.core.moderation.ban(fill("{internal:guild:Lab}"), fill("{internal:user:alice}"), fill("{internal:user:erin}")),
    bot: { method: "DELETE", path: "/guilds/{guild:Lab}/bans/{user:erin}", status: 204 },
    person: { method: "DELETE", path: "/guilds/{guild:Lab}/bans/{user:erin}", status: 204 },
  },
  {
    name: "delete of someone else's message",
    prepare: carolSays,
    bot: { method: "DELETE", path: "/channels/{channel:general}/messages/{msg}", status: 204 },
    person: { method: "DELETE", path: "/channels/{channel:general}/messages/{msgId}", status: 204 },
    harness: { method: "DELETE", path: "/api/harness/v1/users/bob/messages/{msg}", status: 204 },
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Internal ids named by what they are in the seed; the acting bot or person is "<actor>"; others in order of appearance. */
function namer({ w, fill }: ScenarioContext, actor: string): (id: string) => string {
  const names = new Map<string, string>();
  const lab = w.guilds.Lab;
  for (const r of Object.keys(lab.roles)) names.set(fill(`{internal:role:${r}}`), `role:${r}`);
  for (const c of Object.keys(lab.channels)) names.set(fill(`{internal:channel:${c}}`), `channel:${c}`);
  names.set(fill("{internal:guild:Lab}"), "guild:Lab");
  for (const u of Object.keys(w.users)) names.set(fill(`{internal:user:${u}}`), `user:${u}`);
  for (const a of Object.keys(w.applications)) names.set(fill(`{internal:bot:${a}}`), `bot:${a}`);
  names.set(fill(actor), "<actor>");
  let fresh = 0;
  return (id) => {
    if (!names.has(id)) names.set(id, `new#${++fresh}`);
    return names.get(id)!;
  };
}

/** Ids replaced by their names; the deleted channel's snapshot and times left out. */
function canon(v: unknown, name: (id: string) => string): unknown {
  if (typeof v === "string") return UUID.test(v) ? name(v) : v;
  if (Array.isArray(v)) return v.map((x) => canon(x, name));
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== "snapshot" && k !== "at")
        .map(([k, x]) => [k, canon(x, name)]),
    );
  return v;
}

interface Observed {
  events: unknown[];
  audit: unknown[];
}

/** Run one surface's spelling of an action on a fresh world; what it published and audited. */
async function observe(a: Action, door: "bot" | "person" | "harness"): Promise<Observed> {
  const spelled = door === "bot" ? a.bot : door === "person" ? a.person : a.harness!;
  const actor = door === "bot" ? "StaffBot" : "bob";
  const actorId = door === "bot" ? "{internal:bot:StaffBot}" : "{internal:user:bob}";
  let rec: ReturnType<typeof recordEvents> | undefined;
  let lastAudit = "";
  let seen: Observed | undefined;
  const code = spelled.status >= 400 ? 0 : undefined;
  await runScenario({
    name: `${a.name} (${door})`,
    actor,
    ...spelled,
    code,
    world: WORLD,
    config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } },
    setup: (ctx) => {
      const vars = a.prepare?.(ctx) ?? {};
      lastAudit = ctx.p.core.audit.list(ctx.fill("{internal:guild:Lab}"), { limit: 1 })[0]?.id ?? "";
      rec = recordEvents(ctx.p);
      return vars;
    },
    after: (ctx) => {
      rec!.stop();
      const name = namer(ctx, actorId);
      const rows = ctx.p.core.audit.list(ctx.fill("{internal:guild:Lab}"), { limit: 100, after: lastAudit });
      const audit = rows.map((r) => ({
        action_type: r.action_type,
        target_id: r.target_id,
        changes: JSON.parse(r.changes),
        options: r.options === null ? null : JSON.parse(r.options),
        reason: r.reason,
      }));
      seen = { events: canon(rec!.all, name) as unknown[], audit: canon(audit, name) as unknown[] };
    },
  });
  return seen!;
}

describe("every moderation action: the bot API and the people's API publish and audit the same", () => {
  for (const a of ACTIONS) {
    test(a.name, async () => {
      const byBot = await observe(a, "bot");
      // Every action leaves an audit entry (an unban publishes no domain event).
      expect(byBot.audit.length).toBeGreaterThan(0);
      expect({ action: a.name, ...(await observe(a, "person")) }).toEqual({ action: a.name, ...byBot });
      if (a.harness) expect({ action: a.name, ...(await observe(a, "harness")) }).toEqual({ action: a.name, ...byBot });
    });
  }
});
