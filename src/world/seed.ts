/**
 * Seeding a world document (document.ts): validated whole, then created in one
 * transaction, so an invalid world creates nothing. Answers with the snowflakes the bots
 * see and the secrets a test needs. `npm start --seed`, `parley import` of a seed, and the
 * harness's /seed all come here.
 */
import type { Core, MintedSecret } from "../core";
import { DomainError, intentsFromList, permissionsFromList, PRIVILEGED_INTENTS, settableInstant } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import { validate } from "../wire/validation";
import { formatBotToken } from "../wire/tokens";
import { WorldSchema, WORLD_OPTIONS, type SeedAnswer, type World } from "./document";

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

/** What seeding needs: the core, the boundary to answer with snowflakes, and the clock for `start_time`. */
export interface SeedContext {
  core: Core;
  flakes: Snowflakes;
  clock?: { readonly virtual: boolean; now(): number; set(at: number): number; reset(): void };
  /** A test-mode server (--harness): only it takes the world options (document.ts). */
  testMode?: boolean;
}

interface GuildIds {
  id: string;
  channels: Map<string, string>;
  roles: Map<string, string>;
  /** Invite codes, in the document's order. */
  invites: string[];
}

interface AppIds {
  id: string;
  bot: string;
  token: MintedSecret;
  key: string;
}

/**
 * A document whose top level holds only a world's sections (and `$schema`, for editors).
 * A misspelt section ("guild") would otherwise seed nothing of it, silently, and a file
 * that is no world at all (`parley import` of the wrong JSON) would seed an empty one.
 */
function knownSections(doc: unknown): unknown {
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== "object" || Array.isArray(doc)) return doc;
  const known = Object.keys(WorldSchema.properties);
  for (const key of Object.keys(doc))
    if (!known.includes(key) && key !== "$schema")
      throw DomainError.invalid(key, `Not a section of a world document; it has ${known.join(", ")}.`, "UNKNOWN_FIELD");
  return doc;
}

/** A seed document's shape checked, with no database: the refusal seedWorld would give for it. */
export function checkWorld(doc: unknown): void {
  validate(WorldSchema, knownSections(doc));
}

/**
 * A world document, validated whole, then created in one transaction (so an invalid
 * world creates nothing), answered with the snowflakes the bots see.
 */
export function seedWorld(ctx: SeedContext, doc: unknown, passwordHashes?: Map<number, string>): SeedAnswer {
  const w = validate(WorldSchema, knownSections(doc));
  checkWorldOptions(w, ctx.testMode === true);
  const seeder = new Seeder(ctx.core, passwordHashes);
  const undo = w.start_time === undefined ? null : startAt(ctx, w.start_time);
  try {
    ctx.core.transaction(() => seeder.create(w));
  } catch (e) {
    undo?.();
    throw e;
  }
  applyWorldOptions(ctx.core, w);
  // Snowflakes are minted after the commit, so a refused world leaves no trace at all.
  return seeder.answer(ctx.flakes);
}

/**
 * The same, for the harness's HTTP route: people's passwords are checked and hashed
 * first, in parallel and off the event loop, so seeding never stalls other requests.
 */
export async function seedWorldAsync(ctx: SeedContext, doc: unknown): Promise<SeedAnswer> {
  const w = validate(WorldSchema, knownSections(doc));
  const hashes = new Map<number, string>();
  await Promise.all(
    (w.users ?? []).map(async (u, i) => {
      if (u.password === undefined) return;
      try {
        hashes.set(i, await ctx.core.users.preparePassword(u.name, u.password));
      } catch (e) {
        if (!(e instanceof DomainError) || !e.issues[0]) throw e;
        throw DomainError.invalid(
          `users[${i}].${e.issues[0].path === "username" ? "name" : e.issues[0].path}`,
          e.issues[0].message,
          e.issues[0].code,
        );
      }
    }),
  );
  return seedWorld(ctx, w, hashes);
}

/** Refuse the world options outside test mode (400 50035 naming the field), before anything is created. */
function checkWorldOptions(w: World, testMode: boolean): void {
  if (testMode) return;
  for (const name of WORLD_OPTIONS)
    if (w[name] !== undefined)
      throw DomainError.invalid(name, "Only a test-mode server (--harness) takes this option", "BASE_TYPE_INVALID");
}

/** Apply the options a world gives, once it is created. */
function applyWorldOptions(core: Pick<Core, "interactions" | "dms">, w: World): void {
  if (w.interaction_deadline !== undefined) core.interactions.setFirstResponseDeadline(w.interaction_deadline);
  if (w.reference_dms !== undefined) core.dms.setReferenceDms(w.reference_dms);
}

/**
 * Deterministic runs: the virtual clock at `start_time` before anything is created, so
 * ids (hence snowflakes), timestamps and their order are the same on every run. Answers
 * how to put the clock back if the world is then refused.
 */
function startAt(ctx: SeedContext, iso: string): () => void {
  const at = settableInstant("start_time", iso);
  const clock = ctx.clock;
  if (!clock) throw DomainError.invalid("start_time", "This server has no virtual clock", "BASE_TYPE_INVALID");
  const before = clock.virtual ? clock.now() : null;
  clock.set(at);
  return () => (before === null ? clock.reset() : clock.set(before));
}

class Seeder {
  private readonly users = new Map<string, string>();
  /** Lowercased name -> as written in the world. */
  private readonly userNames = new Map<string, string>();
  private readonly userTokens = new Map<string, string>();
  private readonly guilds = new Map<string, GuildIds>();
  private readonly apps = new Map<string, AppIds>();

  constructor(
    private readonly core: Core,
    /** By user index: hashed ahead (seedWorldAsync); others are hashed here. */
    private readonly passwordHashes = new Map<number, string>(),
  ) {}

  create(w: World): void {
    (w.users ?? []).forEach((u, i) => this.user(u, i));
    (w.guilds ?? []).forEach((g, gi) => this.guild(g, gi));
    (w.applications ?? []).forEach((a, ai) => this.application(a, ai));
    // Role members and overwrites may name people or applications (their bot users).
    (w.guilds ?? []).forEach((g, gi) => this.rolesAndOverwrites(g, gi));
  }

  private person(name: string, path: string): string {
    const id = this.users.get(name.toLowerCase());
    if (!id) throw DomainError.invalid(path, `Unknown user '${name}'`, "UNKNOWN_REFERENCE");
    return id;
  }

  private principal(name: string, path: string): string {
    return this.apps.get(name)?.bot ?? this.person(name, path);
  }

  private user(u: NonNullable<World["users"]>[number], i: number): void {
    const { core } = this;
    if (this.users.has(u.name.toLowerCase())) throw DomainError.invalid(`users[${i}].name`, "Duplicate user name");
    const row = at(`users[${i}]`, { username: "name" }, () =>
      core.users.createPerson({
        username: u.name,
        admin: u.admin,
        ...(this.passwordHashes.has(i) ? { passwordHash: this.passwordHashes.get(i) } : { password: u.password ?? null }),
        globalName: u.global_name ?? null,
      }),
    );
    this.users.set(u.name.toLowerCase(), row.id);
    this.userNames.set(u.name.toLowerCase(), u.name);
    this.userTokens.set(u.name.toLowerCase(), core.sessions.open(row.id, "Test harness").token);
  }

  private guild(g: NonNullable<World["guilds"]>[number], gi: number): void {
    const { core } = this;
    const gp = `guilds[${gi}]`;
    if (this.guilds.has(g.name)) throw DomainError.invalid(`${gp}.name`, "Duplicate guild name");
    const everyoneSpec = (g.roles ?? []).find((r) => r.name === "@everyone");
    const row = at(gp, {}, () =>
      core.guilds.create({
        name: g.name,
        ownerId: this.person(g.owner, `${gp}.owner`),
        channels: [],
        everyonePermissions: everyoneSpec?.permissions !== undefined ? perms(everyoneSpec.permissions, `${gp}.roles`) : undefined,
      }),
    );
    const entry: GuildIds = { id: row.id, channels: new Map(), roles: new Map([["@everyone", row.id]]), invites: [] };
    this.guilds.set(g.name, entry);
    (g.members ?? []).forEach((m, mi) => {
      const uid = this.person(typeof m === "string" ? m : m.name, `${gp}.members[${mi}]`);
      core.guilds.addMember(row.id, uid);
      if (typeof m !== "string" && m.nick) core.guilds.setNick(row.id, uid, m.nick);
    });
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
    (g.channels ?? [{ name: "general" }]).forEach((c, ci) => {
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
    (g.invites ?? []).forEach((inv, ii) => {
      const ip = `${gp}.invites[${ii}]`;
      const channelId = inv.channel === undefined ? [...entry.channels.values()][0] : entry.channels.get(inv.channel);
      if (!channelId) throw DomainError.invalid(`${ip}.channel`, `Unknown channel '${inv.channel ?? ""}'`, "UNKNOWN_REFERENCE");
      const creator = inv.creator === undefined ? row.owner_id : this.person(inv.creator, `${ip}.creator`);
      const made = at(ip, {}, () => core.invites.create(creator, channelId, { maxAge: inv.max_age, maxUses: inv.max_uses }));
      entry.invites.push(made.code);
    });
  }

  private application(a: NonNullable<World["applications"]>[number], ai: number): void {
    const { core } = this;
    const ap = `applications[${ai}]`;
    if (this.apps.has(a.name)) throw DomainError.invalid(`${ap}.name`, "Duplicate application name");
    const owner = this.person(a.owner, `${ap}.owner`);
    const requested = intents(a.intents, `${ap}.intents`);
    const approved = intents(a.approved_privileged, `${ap}.approved_privileged`) ?? 0;
    const created = at(ap, {}, () => core.apps.create({ ownerId: owner, name: a.name, description: a.description, intents: requested }));
    if (approved & PRIVILEGED_INTENTS) core.apps.approvePrivileged(created.app.id, null, approved);
    // The token carries the grant as of minting: mint after approval.
    const token = core.apps.rotateToken(created.app.id);
    this.apps.set(a.name, { id: created.app.id, bot: created.bot.id, token, key: created.app.public_key });
    (a.install ?? []).forEach((gname, ii) => {
      const g = this.guilds.get(gname);
      if (!g) throw DomainError.invalid(`${ap}.install[${ii}]`, `Unknown guild '${gname}'`, "UNKNOWN_REFERENCE");
      core.guilds.addMember(g.id, created.bot.id);
    });
  }

  private rolesAndOverwrites(g: NonNullable<World["guilds"]>[number], gi: number): void {
    const { core } = this;
    const entry = this.guilds.get(g.name)!;
    (g.roles ?? []).forEach((r, ri) => {
      if (r.name === "@everyone") return;
      (r.members ?? []).forEach((m, mi) => {
        const path = `guilds[${gi}].roles[${ri}].members[${mi}]`;
        const uid = this.principal(m, path);
        if (!core.guilds.isMember(entry.id, uid)) throw DomainError.invalid(path, `'${m}' is not a member of ${g.name}`);
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
          target = this.principal(o.user!, `${op}.user`);
          type = 1;
        }
        core.guilds.setOverwrite(entry.channels.get(c.name)!, target, type, perms(o.allow, `${op}.allow`), perms(o.deny, `${op}.deny`));
      });
    });
  }

  answer(f: Snowflakes): SeedAnswer {
    const answer: SeedAnswer = { users: {}, guilds: {}, applications: {} };
    for (const [key, id] of this.users) answer.users[this.userNames.get(key)!] = { id: f.of(id), token: this.userTokens.get(key)! };
    for (const [name, g] of this.guilds)
      answer.guilds[name] = {
        id: f.of(g.id),
        channels: Object.fromEntries([...g.channels].map(([k, v]) => [k, f.of(v)])),
        roles: Object.fromEntries([...g.roles].map(([k, v]) => [k, f.of(v)])),
        invites: [...g.invites],
      };
    for (const [name, a] of this.apps)
      answer.applications[name] = {
        id: f.of(a.id),
        bot_user_id: f.of(a.bot),
        token: formatBotToken(f.of(a.bot), a.token),
        public_key: a.key,
      };
    return answer;
  }
}
