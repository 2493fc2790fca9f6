/**
 * The world document (design/harness.md): validated whole, then created in one
 * transaction, so an invalid world creates nothing. Answers with the snowflakes the
 * bots see and the secrets a test needs.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { BotApi } from "../botapi/context";
import { validate } from "../wire/validation";
import { DomainError } from "../core/errors";
import { intentsFromList, permissionsFromList, PRIVILEGED_INTENTS } from "../core/permissions";
import { formatBotToken } from "../wire/tokens";

const Name = Type.String({ minLength: 1, maxLength: 100 });
const PermList = Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }), Type.String({ pattern: "^[0-9]{1,20}$" })]);
const IntentList = Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }), Type.Integer({ minimum: 0 })]);

export const WorldSchema = Type.Object({
  users: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 32 }),
        admin: Type.Optional(Type.Boolean()),
        password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
        global_name: Type.Optional(Type.String({ maxLength: 32 })),
      }),
      { maxItems: 1000 },
    ),
  ),
  guilds: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 100 }),
        owner: Name,
        members: Type.Optional(Type.Array(Name, { maxItems: 1000 })),
        roles: Type.Optional(
          Type.Array(
            Type.Object({
              name: Name,
              permissions: Type.Optional(PermList),
              members: Type.Optional(Type.Array(Name, { maxItems: 1000 })),
              color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff })),
              hoist: Type.Optional(Type.Boolean()),
              mentionable: Type.Optional(Type.Boolean()),
            }),
            { maxItems: 250 },
          ),
        ),
        channels: Type.Optional(
          Type.Array(
            Type.Object({
              name: Type.String({ minLength: 1, maxLength: 100 }),
              type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(4), Type.Literal(5)])),
              topic: Type.Optional(Type.String({ maxLength: 1024 })),
              parent: Type.Optional(Name),
              nsfw: Type.Optional(Type.Boolean()),
              rate_limit_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 21600 })),
              overwrites: Type.Optional(
                Type.Array(
                  Type.Object({
                    role: Type.Optional(Name),
                    user: Type.Optional(Name),
                    allow: Type.Optional(PermList),
                    deny: Type.Optional(PermList),
                  }),
                  { maxItems: 100 },
                ),
              ),
            }),
            { maxItems: 500 },
          ),
        ),
      }),
      { maxItems: 100 },
    ),
  ),
  applications: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 32 }),
        owner: Name,
        description: Type.Optional(Type.String({ maxLength: 400 })),
        intents: Type.Optional(IntentList),
        approved_privileged: Type.Optional(IntentList),
        install: Type.Optional(Type.Array(Name, { maxItems: 100 })),
      }),
      { maxItems: 100 },
    ),
  ),
});

export type World = Static<typeof WorldSchema>;

export interface SeedAnswer {
  users: Record<string, { id: string; token: string }>;
  guilds: Record<string, { id: string; channels: Record<string, string>; roles: Record<string, string> }>;
  applications: Record<string, { id: string; bot_user_id: string; token: string; public_key: string }>;
}

function perms(v: string[] | string | undefined, path: string): number {
  return v === undefined ? 0 : permissionsFromList(v, path);
}

function intents(v: string[] | number | undefined, path: string): number | undefined {
  return v === undefined ? undefined : intentsFromList(v, path);
}

/**
 * Run one creation step; a refusal from core names its field relative to the object
 * ("username"), so re-anchor it at the world document's path ("users[2].name").
 */
function at<T>(base: string, rename: Record<string, string>, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof DomainError) || (e.kind !== "invalid" && e.kind !== "conflict")) throw e;
    const issue = e.issues[0];
    if (issue?.path.startsWith(base)) throw e; // already named from the world's root
    const field = issue?.path ? (rename[issue.path] ?? issue.path) : e.kind === "conflict" ? "name" : "";
    const path = field ? `${base}.${field}` : base;
    throw DomainError.invalid(path, issue?.message ?? e.message, issue?.code ?? "ALREADY_EXISTS");
  }
}

export function seedWorld(api: BotApi, doc: unknown): SeedAnswer {
  const w = validate(WorldSchema, doc ?? {});
  const { core } = api;
  const ids = {
    users: new Map<string, string>(),
    userNames: new Map<string, string>(), // lowercased -> as written in the world
    userTokens: new Map<string, string>(),
    guilds: new Map<string, { id: string; channels: Map<string, string>; roles: Map<string, string> }>(),
    apps: new Map<string, { id: string; bot: string; token: { secret: string; version: number }; key: string }>(),
  };

  core.store.write(() => {
    (w.users ?? []).forEach((u, i) => {
      if (ids.users.has(u.name.toLowerCase())) throw DomainError.invalid(`users[${i}].name`, "Duplicate user name");
      const row = at(`users[${i}]`, { username: "name" }, () =>
        core.users.createPerson({ username: u.name, admin: u.admin, password: u.password ?? null, globalName: u.global_name ?? null }),
      );
      ids.users.set(u.name.toLowerCase(), row.id);
      ids.userNames.set(u.name.toLowerCase(), u.name);
      ids.userTokens.set(u.name.toLowerCase(), core.users.openSession(row.id));
    });
    const person = (name: string, path: string) => {
      const id = ids.users.get(name.toLowerCase());
      if (!id) throw DomainError.invalid(path, `Unknown user '${name}'`, "UNKNOWN_REFERENCE");
      return id;
    };

    (w.guilds ?? []).forEach((g, gi) => {
      const gp = `guilds[${gi}]`;
      if (ids.guilds.has(g.name)) throw DomainError.invalid(`${gp}.name`, "Duplicate guild name");
      const everyoneSpec = (g.roles ?? []).find((r) => r.name === "@everyone");
      const row = at(gp, {}, () => core.guilds.create({
        name: g.name,
        ownerId: person(g.owner, `${gp}.owner`),
        channels: [],
        everyonePermissions: everyoneSpec?.permissions !== undefined ? perms(everyoneSpec.permissions, `${gp}.roles`) : undefined,
      }));
      const entry = { id: row.id, channels: new Map<string, string>(), roles: new Map<string, string>([["@everyone", row.id]]) };
      ids.guilds.set(g.name, entry);
      (g.members ?? []).forEach((m, mi) => core.guilds.addMember(row.id, person(m, `${gp}.members[${mi}]`)));
      (g.roles ?? []).forEach((r, ri) => {
        if (r.name === "@everyone") return;
        if (entry.roles.has(r.name)) throw DomainError.invalid(`${gp}.roles[${ri}].name`, "Duplicate role name");
        const role = core.guilds.createRole(row.id, {
          name: r.name,
          permissions: perms(r.permissions, `${gp}.roles[${ri}].permissions`),
          color: r.color,
          hoist: r.hoist,
          mentionable: r.mentionable,
        });
        entry.roles.set(r.name, role.id);
      });
      const channels = g.channels ?? [{ name: "general" }];
      channels.forEach((c, ci) => {
        if (entry.channels.has(c.name)) throw DomainError.invalid(`${gp}.channels[${ci}].name`, "Duplicate channel name");
        let parentId: string | null = null;
        if (c.parent) {
          parentId = entry.channels.get(c.parent) ?? null;
          if (!parentId) throw DomainError.invalid(`${gp}.channels[${ci}].parent`, `Unknown channel '${c.parent}' (list categories first)`);
        }
        const ch = core.guilds.createChannel({
          guildId: row.id,
          name: c.name,
          type: c.type ?? 0,
          topic: c.topic ?? null,
          parentId,
          nsfw: c.nsfw,
          rateLimitPerUser: c.rate_limit_per_user,
        });
        entry.channels.set(c.name, ch.id);
        if (ci === 0) core.guilds.update(row.id, { system_channel_id: ch.id });
      });
    });

    (w.applications ?? []).forEach((a, ai) => {
      const ap = `applications[${ai}]`;
      if (ids.apps.has(a.name)) throw DomainError.invalid(`${ap}.name`, "Duplicate application name");
      const owner = person(a.owner, `${ap}.owner`);
      const requested = intents(a.intents, `${ap}.intents`);
      const approved = intents(a.approved_privileged, `${ap}.approved_privileged`) ?? 0;
      const created = at(ap, {}, () => core.apps.create({ ownerId: owner, name: a.name, description: a.description, intents: requested }));
      if (approved & PRIVILEGED_INTENTS) core.apps.approvePrivileged(created.app.id, null, approved);
      // The token carries the grant as of minting: mint after approval.
      const token = core.apps.rotateToken(created.app.id);
      ids.apps.set(a.name, { id: created.app.id, bot: created.bot.id, token, key: created.app.public_key });
      (a.install ?? []).forEach((gname, ii) => {
        const g = ids.guilds.get(gname);
        if (!g) throw DomainError.invalid(`${ap}.install[${ii}]`, `Unknown guild '${gname}'`, "UNKNOWN_REFERENCE");
        core.guilds.addMember(g.id, created.bot.id);
      });
    });

    // Role members and overwrites may name people or applications (their bot users).
    const principal = (name: string, path: string) => ids.apps.get(name)?.bot ?? person(name, path);
    (w.guilds ?? []).forEach((g, gi) => {
      const entry = ids.guilds.get(g.name)!;
      (g.roles ?? []).forEach((r, ri) => {
        if (r.name === "@everyone") return;
        (r.members ?? []).forEach((m, mi) => {
          const uid = principal(m, `guilds[${gi}].roles[${ri}].members[${mi}]`);
          if (!core.guilds.isMember(entry.id, uid))
            throw DomainError.invalid(`guilds[${gi}].roles[${ri}].members[${mi}]`, `'${m}' is not a member of ${g.name}`);
          core.guilds.addMemberRole(entry.id, uid, entry.roles.get(r.name)!);
        });
      });
      (g.channels ?? []).forEach((c, ci) => {
        (c.overwrites ?? []).forEach((o, oi) => {
          const op = `guilds[${gi}].channels[${ci}].overwrites[${oi}]`;
          if ((o.role === undefined) === (o.user === undefined)) throw DomainError.invalid(op, "Give exactly one of role or user");
          let target: string;
          let type: 0 | 1;
          if (o.role !== undefined) {
            const rid = entry.roles.get(o.role);
            if (!rid) throw DomainError.invalid(`${op}.role`, `Unknown role '${o.role}'`, "UNKNOWN_REFERENCE");
            target = rid;
            type = 0;
          } else {
            target = principal(o.user!, `${op}.user`);
            type = 1;
          }
          core.guilds.setOverwrite(entry.channels.get(c.name)!, target, type, perms(o.allow, `${op}.allow`), perms(o.deny, `${op}.deny`));
        });
      });
    });
  });

  // Snowflakes are minted after the commit, so a refused world leaves no trace at all.
  const f = api.flakes;
  const answer: SeedAnswer = { users: {}, guilds: {}, applications: {} };
  for (const [key, id] of ids.users) answer.users[ids.userNames.get(key)!] = { id: f.of(id), token: ids.userTokens.get(key)! };
  for (const [name, g] of ids.guilds)
    answer.guilds[name] = {
      id: f.of(g.id),
      channels: Object.fromEntries([...g.channels].map(([k, v]) => [k, f.of(v)])),
      roles: Object.fromEntries([...g.roles].map(([k, v]) => [k, f.of(v)])),
    };
  for (const [name, a] of ids.apps)
    answer.applications[name] = { id: f.of(a.id), bot_user_id: f.of(a.bot), token: formatBotToken(f.of(a.bot), a.token), public_key: a.key };
  return answer;
}
