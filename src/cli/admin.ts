/**
 * What the `/admin` pages do, as `parley` commands: administrators, reset links, who may
 * sign up and make servers, the instance's sign-up invites, servers given away or
 * deleted, and the overview's figures. The operator acts as the administrator
 * (core/admins.ts OPERATOR); the rules are the core's, so a refusal here is the one the
 * pages show. Beside a running server, what changes reaches its live connections at once
 * (store/relay.ts): a deleted server's members and bots hear of it.
 */
import { GUILD_CREATORS, OPERATOR, RESET_LINK_TTL_MS, type GuildCreators, type RegistrationMode } from "../core";
import type { Parley } from "../app";
import { CliError } from "./errors";
import { DATA_FLAG, findGuild, findPerson, required, type Command, type Out } from "./operator";

/** The address links are made under: the running server's, else the one this command's settings give (and it says so). */
function baseFor(p: Parley, out: Out): string {
  const running = p.runningServer();
  if (!running?.base)
    out(
      `  (no server is running on this data directory: the link assumes it will listen at ${p.api.urls.base}, from PARLEY_PORT, PARLEY_HOST and PARLEY_BASE_URL, or their defaults)`,
    );
  return running?.base ?? p.api.urls.base;
}

/** "7d", "12h", "30m", or "never" (null). */
export function parseDuration(raw: string): number | null {
  if (raw === "never") return null;
  const m = /^(\d+)([mhd])$/.exec(raw);
  if (!m) throw new CliError(`--expire takes a number of minutes, hours or days (30m, 12h, 7d), or 'never'; not '${raw}'`, 2);
  return +m[1] * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "m" | "h" | "d"];
}

const when = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

const MODES: Record<string, RegistrationMode> = { open: "open", "invite-only": "invite", closed: "closed" };
const MODE_WORDS: Record<RegistrationMode, string> = {
  open: "open: anyone may sign up",
  invite: "invite-only: signing up needs an invite ('parley invite create')",
  closed: "closed: nobody signs up; create people with 'parley user create'",
};

export const ADMIN_COMMANDS: Command[] = [
  {
    name: "user admin",
    usage: "parley user admin <person> [--revoke]",
    summary: "make a person an administrator of this server (--revoke: no longer; never the last one)",
    flags: [DATA_FLAG, { name: "revoke", kind: "bool", help: "take the administrator's rights away instead" }],
    database: "existing",
    run(p, [ref], f, out) {
      const u = p.core.accounts.setAdmin(OPERATOR, findPerson(p, required(ref, "a person")).id, f.revoke !== true);
      out(u.is_admin ? `${u.username} is an administrator` : `${u.username} is no longer an administrator`);
    },
  },
  {
    name: "user reset-link",
    usage: "parley user reset-link <person>",
    summary: "make a one-time link that sets a person's password (older links of theirs stop working)",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref], _f, out) {
      const issued = p.core.passwordResets.issue(OPERATOR, findPerson(p, required(ref, "a person")).id);
      out(`reset link for ${issued.user.username} (works once, until ${when(issued.expiresAt)}, ${RESET_LINK_TTL_MS / 3_600_000} hours):`);
      out(`${baseFor(p, out)}/reset-password/${issued.token}`);
      out("using it signs them out everywhere else");
    },
  },
  {
    name: "registration",
    usage: "parley registration [open|invite-only|closed]",
    summary: "who may sign up (alone: show who may sign up and who may create servers)",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [word], _f, out) {
      if (word !== undefined && !MODES[word])
        throw new CliError(
          `registration is open, invite-only or closed; not '${word}' (who may create servers: 'parley registration servers')`,
          2,
        );
      const s = word === undefined ? p.core.instance.settings() : p.core.instance.update(OPERATOR, { registration: MODES[word] });
      out(`registration is ${MODE_WORDS[s.registration]}`);
      out(`servers may be created by ${s.guildCreation === "everyone" ? "everyone" : "administrators only"}`);
    },
  },
  {
    name: "registration servers",
    usage: "parley registration servers <everyone|admins>",
    summary: "who may create servers: every person, or administrators only",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [word], _f, out) {
      if (word === undefined)
        throw new CliError("say who may create servers: 'everyone' or 'admins' ('parley registration' shows who may now)", 2);
      if (!GUILD_CREATORS.includes(word as GuildCreators))
        throw new CliError(`who may create servers: everyone or admins; not '${word}'`, 2);
      const s = p.core.instance.update(OPERATOR, { guildCreation: word as GuildCreators });
      out(`servers may be created by ${s.guildCreation === "everyone" ? "everyone" : "administrators only"}`);
    },
  },
  {
    name: "invite create",
    usage: "parley invite create [--max-uses N] [--expire 7d]",
    summary: "make an invite to sign up here (for invite-only registration); prints it once",
    flags: [
      DATA_FLAG,
      { name: "max-uses", kind: "string", help: "how many sign-ups it admits (default 1; 0: no limit)" },
      { name: "expire", kind: "string", help: "how long it works: 30m, 12h, 7d (default) or never" },
    ],
    database: "existing",
    run(p, _a, f, out) {
      const maxUses = f["max-uses"] === undefined ? 1 : Number(f["max-uses"]);
      if (!Number.isInteger(maxUses) || maxUses < 0 || maxUses > 1000)
        throw new CliError(`--max-uses takes a whole number from 0 (no limit) to 1000, not '${f["max-uses"]}'`, 2);
      const expiresInMs = f.expire === undefined ? undefined : parseDuration(String(f.expire));
      const { code, invite } = p.core.instance.createInvite(OPERATOR, { maxUses, expiresInMs });
      out(
        `invite ${invite.id}: ${invite.max_uses === 0 ? "any number of sign-ups" : `${invite.max_uses} sign-up${invite.max_uses === 1 ? "" : "s"}`}, until ${when(invite.expires_at)}`,
      );
      out(`code (shown once; the person signing up gives it): ${code}`);
      if (p.core.instance.settings().registration !== "invite")
        out("note: registration is not invite-only now ('parley registration invite-only')");
    },
  },
  {
    name: "invite list",
    usage: "parley invite list",
    summary: "the sign-up invites that still work (id, uses, expiry)",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, _a, _f, out) {
      const all = p.core.instance.invites(OPERATOR);
      if (!all.length) out("no sign-up invites ('parley invite create')");
      for (const i of all) {
        const by = i.created_by ? (p.core.users.get(i.created_by)?.username ?? "?") : "the operator";
        out(`${i.id}  used ${i.uses}${i.max_uses ? ` of ${i.max_uses}` : ""}  until ${when(i.expires_at)}  by ${by}`);
      }
    },
  },
  {
    name: "invite revoke",
    usage: "parley invite revoke <id>",
    summary: "revoke a sign-up invite: nobody signs up with it any more",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [id], _f, out) {
      const invite = required(id, "an invite id ('parley invite list')");
      // The core's "Unknown invite" would not say where the ids are.
      if (!p.core.instance.invites(OPERATOR).some((i) => i.id === invite))
        throw new CliError(`no sign-up invite '${invite}' that still works (list them with 'parley invite list')`, 2);
      p.core.instance.revokeInvite(OPERATOR, invite);
      out(`revoked invite ${id}`);
    },
  },
  {
    name: "guild transfer",
    usage: "parley guild transfer <server> --to <person>",
    summary: "give a server to another of its members",
    flags: [DATA_FLAG, { name: "to", kind: "string", help: "the member who will own it (username or id)" }],
    database: "existing",
    run(p, [ref], f, out) {
      const g = findGuild(p, required(ref, "a server"));
      const to = findPerson(p, required(f.to, "--to"));
      // The core's "Unknown member" names neither: the operator needs both, and what to do.
      if (!p.core.guilds.isMember(g.id, to.id))
        throw new CliError(`${to.username} is not a member of ${g.name}: a server goes only to one of its members (invite them first)`, 2);
      p.core.servers.transfer(OPERATOR, g.id, to.id);
      out(`${g.name} is now owned by ${to.username}`);
    },
  },
  {
    name: "guild delete",
    usage: "parley guild delete <server>",
    summary: "delete a server and everything in it: channels, messages, roles, invites; its members and bots are told",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref], _f, out) {
      const d = p.core.servers.delete(OPERATOR, findGuild(p, required(ref, "a server")).id);
      const n = (k: number, one: string) => `${k} ${one}${k === 1 ? "" : "s"}`;
      out(
        `deleted ${d.guild.name}: ${n(d.channels, "channel")}, ${n(d.messages, "message")}, ${n(d.roles, "role")}; ${n(d.members, "member")} removed`,
      );
    },
  },
  {
    name: "stats",
    usage: "parley stats",
    summary: "the overview: people, servers, messages, database size, and the last 30 days",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, _a, _f, out) {
      const o = p.core.stats.overview(OPERATOR, true);
      const c = o.counts;
      out(
        `people ${c.people} (${c.administrators} administrator${c.administrators === 1 ? "" : "s"}, ${c.disabledPeople} disabled), applications ${c.applications}`,
      );
      out(`servers ${c.servers}, channels ${c.channels}, messages ${c.messages}`);
      out(`database ${(o.databaseBytes / 1_048_576).toFixed(1)} MiB, media ${(o.mediaBytes / 1_048_576).toFixed(1)} MiB`);
      out("day         messages  active  requests");
      for (const d of o.days)
        out(`${d.day}  ${String(d.messages).padStart(8)}  ${String(d.activePeople).padStart(6)}  ${String(d.requests).padStart(8)}`);
    },
  },
];
