/**
 * Administering the instance, in the core (issue "Running a community"): who may sign up
 * (open, invite-only with instance invites, closed) and who may create servers, checked
 * by sign-up and server creation; administrators' rights checked in the core (never the
 * last one taken away); disabling a person with or without their applications; one-time
 * password reset links on the one clock; the overview's figures.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { internalId, makeParley, recordEvents } from "../helpers";
import { DomainError, OPERATOR } from "../../src/core";
import { dayOf } from "../../src/core/sessions";
import { png } from "../support/png";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const PASSWORD = "a long and quiet password";
const WORLD = {
  users: [{ name: "root", admin: true, password: PASSWORD }, { name: "ann", password: PASSWORD }, { name: "ben" }],
  guilds: [{ name: "Club", owner: "ann", members: ["ben"], channels: [{ name: "general" }] }],
  applications: [{ name: "AnnBot", owner: "ann", intents: ["GUILDS"], install: ["Club"] }],
};

let p: Parley;
let w: SeedAnswer;
const person = (name: string) => internalId(p, w.users[name].id);

/** The refusal a call makes: its kind, and its field's code when it names one. */
async function refusal(fn: () => unknown): Promise<{ kind: string; code?: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof DomainError) return { kind: e.kind, code: e.issues[0]?.code, message: e.message };
    throw e;
  }
  throw new Error("did not throw");
}

const signUp = (username: string, invite?: string) => p.core.users.signUp({ username, password: PASSWORD, label: "test", invite });

beforeEach(() => {
  p = makeParley();
  w = p.seed(structuredClone(WORLD));
});

describe("registration", () => {
  test("open by default; closed refuses every sign-up with a clear 403, before anything is written", async () => {
    expect(p.core.instance.settings()).toEqual({ registration: "open", guildCreation: "everyone" });
    await signUp("early");
    p.core.instance.update(person("root"), { registration: "closed" });
    expect(await refusal(() => signUp("late"))).toMatchObject({
      kind: "forbidden",
      message: "Sign-ups are closed on this server: ask its administrator for an account",
    });
    expect(p.core.users.byUsername("late")).toBeNull();
    // The operator still creates people.
    expect(p.core.users.createPerson({ username: "made" }).username).toBe("made");
  });

  test("invite-only: a sign-up needs a live instance invite, which it uses up; revoked, expired or used-up invites are refused", async () => {
    p.core.instance.update(OPERATOR, { registration: "invite" });
    expect(await refusal(() => signUp("nobody"))).toMatchObject({ kind: "invalid", code: "INVITE_REQUIRED" });
    const once = p.core.instance.createInvite(person("root"), { maxUses: 1 });
    expect(once.invite).toMatchObject({ max_uses: 1, uses: 0, created_by: person("root") });
    expect((await signUp("first", once.code)).user.username).toBe("first");
    expect(await refusal(() => signUp("second", once.code))).toMatchObject({ kind: "invalid", code: "INVITE_INVALID" });
    expect(p.core.instance.invites(OPERATOR)).toEqual([]);

    const timed = p.core.instance.createInvite(OPERATOR, { maxUses: 0, expiresInMs: 3_600_000 });
    expect((await signUp("third", timed.code)).user.username).toBe("third");
    expect(p.core.instance.invites(OPERATOR).map((i) => [i.id, i.uses])).toEqual([[timed.invite.id, 1]]);
    p.clock.advance(3_600_000);
    expect(await refusal(() => signUp("fourth", timed.code))).toMatchObject({ code: "INVITE_INVALID" });

    const revoked = p.core.instance.createInvite(OPERATOR, {});
    p.core.instance.revokeInvite(OPERATOR, revoked.invite.id);
    expect(await refusal(() => signUp("fifth", revoked.code))).toMatchObject({ code: "INVITE_INVALID" });
    expect(await refusal(() => p.core.instance.revokeInvite(OPERATOR, revoked.invite.id))).toMatchObject({ kind: "not_found" });
    // Only the digest is kept.
    expect(p.store.db.query("SELECT count(*) AS n FROM instance_invites WHERE code_hash = ?").get(revoked.code)).toEqual({ n: 0 });
  });

  test("a refused sign-up (name taken) uses nothing up", async () => {
    p.core.instance.update(OPERATOR, { registration: "invite" });
    const inv = p.core.instance.createInvite(OPERATOR, { maxUses: 1 });
    expect(await refusal(() => signUp("ann", inv.code))).toMatchObject({ kind: "conflict" });
    expect(p.core.instance.invites(OPERATOR)[0].uses).toBe(0);
  });

  test("who may create servers: everyone, or administrators only (checked where a person creates one)", async () => {
    expect(p.core.people.createGuild(person("ben"), "Ben's").name).toBe("Ben's");
    p.core.instance.update(OPERATOR, { guildCreation: "admins" });
    expect(await refusal(() => p.core.people.createGuild(person("ben"), "Another"))).toMatchObject({ kind: "forbidden" });
    expect(p.core.people.createGuild(person("root"), "Root's").owner_id).toBe(person("root"));
  });

  test("only administrators (and the operator) change the settings or make invites; a bad value names its field", async () => {
    expect(await refusal(() => p.core.instance.update(person("ann"), { registration: "closed" }))).toMatchObject({ kind: "forbidden" });
    expect(await refusal(() => p.core.instance.createInvite(person("ann")))).toMatchObject({ kind: "forbidden" });
    expect(await refusal(() => p.core.instance.invites(person("ann")))).toMatchObject({ kind: "forbidden" });
    expect(await refusal(() => p.core.instance.update(OPERATOR, { registration: "sometimes" as never }))).toMatchObject({
      code: "BASE_TYPE_CHOICES",
    });
    expect(await refusal(() => p.core.instance.createInvite(OPERATOR, { maxUses: 1001 }))).toMatchObject({ kind: "invalid" });
    expect(p.core.instance.settings().registration).toBe("open");
  });
});

describe("administrators", () => {
  test("make and unmake; the last administrator who can act is never unmade, disabled or deleted", async () => {
    expect(await refusal(() => p.core.accounts.setAdmin(person("root"), person("root"), false))).toMatchObject({ kind: "conflict" });
    expect(await refusal(() => p.core.accounts.setDisabled(OPERATOR, person("root"), true))).toMatchObject({ kind: "conflict" });
    expect(await refusal(() => p.core.accounts.delete(OPERATOR, person("root")))).toMatchObject({ kind: "conflict" });
    expect(await refusal(() => p.core.accounts.setAdmin(person("ann"), person("ann"), true))).toMatchObject({ kind: "forbidden" });
    p.core.accounts.setAdmin(person("root"), person("ben"), true);
    p.core.accounts.setAdmin(person("ben"), person("root"), false);
    expect(p.core.users.require(person("root")).is_admin).toBe(0);
    // root is no longer an administrator: refused.
    expect(await refusal(() => p.core.accounts.setAdmin(person("root"), person("root"), true))).toMatchObject({ kind: "forbidden" });
  });

  test("a disabled administrator's rights are gone until enabled", async () => {
    p.core.accounts.setAdmin(OPERATOR, person("ben"), true);
    p.core.accounts.setDisabled(OPERATOR, person("ben"), true);
    expect(await refusal(() => p.core.accounts.list(person("ben")))).toMatchObject({ kind: "forbidden" });
    // root is now the only one who can act.
    expect(await refusal(() => p.core.accounts.setAdmin(OPERATOR, person("root"), false))).toMatchObject({ kind: "conflict" });
    p.core.accounts.setDisabled(person("root"), person("ben"), false);
    expect(p.core.accounts.list(person("ben")).length).toBe(3);
  });

  test("the list searches usernames and display names, with each person's applications", () => {
    p.core.profiles.setGlobalName(person("ben"), "Benjamín");
    const all = p.core.accounts.list(OPERATOR);
    expect(all.map((a) => [a.user.username, a.applications.map((x) => x.name), a.ownedGuilds])).toEqual([
      ["root", [], 0],
      ["ann", ["AnnBot"], 1],
      ["ben", [], 0],
    ]);
    expect(p.core.accounts.list(OPERATOR, { search: "JAM" }).map((a) => a.user.username)).toEqual(["ben"]);
    expect(p.core.accounts.list(OPERATOR, { search: "_" })).toEqual([]);
  });

  test("the privileged-intent lists are an administrator's", async () => {
    expect(p.core.apps.privilegedRequests(person("root"))).toEqual([]);
    expect(await refusal(() => p.core.apps.privilegedGrants(person("ann")))).toMatchObject({ kind: "forbidden" });
  });
});

describe("disabling a person", () => {
  test("without --apps their bots keep running; with it, each application is disabled too (its sessions end), and enabling undoes both", () => {
    const app = internalId(p, w.applications.AnnBot.id);
    const ev = recordEvents(p);
    p.core.accounts.setDisabled(person("root"), person("ann"), true);
    expect(ev.of("person.sessions_ended")).toEqual([expect.objectContaining({ userId: person("ann"), reason: "disabled" })]);
    expect(ev.count("application.disabled")).toBe(0);
    expect(p.core.apps.require(app).disabled_at).toBeNull();
    p.core.accounts.setDisabled(person("root"), person("ann"), true, { applications: true });
    expect(ev.of("application.disabled")).toEqual([{ type: "application.disabled", applicationId: app }]);
    expect(p.core.apps.require(app).disabled_at).not.toBeNull();
    p.core.accounts.setDisabled(person("root"), person("ann"), false, { applications: true });
    expect(p.core.users.require(person("ann")).disabled_at).toBeNull();
    expect(p.core.apps.require(app).disabled_at).toBeNull();
  });
});

describe("password reset links", () => {
  test("single use: redeeming sets the password, ends every other session and opens one; the link then fails", async () => {
    const other = w.users.ann.token;
    expect(p.core.sessions.authenticate(other)).not.toBeNull();
    const issued = p.core.passwordResets.issue(person("root"), person("ann"));
    expect(p.core.passwordResets.lookup(issued.token).username).toBe("ann");
    const ev = recordEvents(p);
    const redeemed = await p.core.passwordResets.redeem(issued.token, "another long quiet password", "browser");
    expect(redeemed.user.username).toBe("ann");
    expect(p.core.sessions.authenticate(other)).toBeNull();
    expect(p.core.sessions.authenticate(redeemed.token)?.user.id).toBe(person("ann"));
    expect(ev.of("person.sessions_ended")).toEqual([expect.objectContaining({ userId: person("ann"), reason: "password_reset" })]);
    expect((await p.core.users.signIn("ann", "another long quiet password", "x")).user.id).toBe(person("ann"));
    expect(await refusal(() => p.core.passwordResets.redeem(issued.token, "yet another long password", "again"))).toMatchObject({
      kind: "not_found",
    });
    // Stored as a digest only.
    expect(p.store.db.query("SELECT count(*) AS n FROM password_resets WHERE token_hash = ?").get(issued.token)).toEqual({ n: 0 });
  });

  test("expires on the one clock; a newer link replaces the older; a weak password is refused at new_password and uses nothing up", async () => {
    const first = p.core.passwordResets.issue(OPERATOR, person("ben"));
    const second = p.core.passwordResets.issue(OPERATOR, person("ben"));
    expect(await refusal(() => p.core.passwordResets.lookup(first.token))).toMatchObject({ kind: "not_found" });
    expect(await refusal(() => p.core.passwordResets.redeem(second.token, "short", "x"))).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("new_password"),
    });
    expect(p.core.passwordResets.lookup(second.token).username).toBe("ben");
    p.clock.advance(24 * 3_600_000);
    expect(await refusal(() => p.core.passwordResets.redeem(second.token, "a perfectly long password", "x"))).toMatchObject({
      kind: "not_found",
    });
  });

  test("only administrators make them; never for a bot; a disabled person's link does not sign them in", async () => {
    expect(await refusal(() => p.core.passwordResets.issue(person("ann"), person("ben")))).toMatchObject({ kind: "forbidden" });
    expect(await refusal(() => p.core.passwordResets.issue(OPERATOR, internalId(p, w.applications.AnnBot.bot_user_id)))).toMatchObject({
      kind: "invalid",
    });
    const link = p.core.passwordResets.issue(OPERATOR, person("ben"));
    p.core.accounts.setDisabled(OPERATOR, person("ben"), true);
    expect(await refusal(() => p.core.passwordResets.redeem(link.token, "a perfectly long password", "x"))).toMatchObject({
      kind: "forbidden",
    });
  });
});

describe("the overview", () => {
  test("the stored files' size: each distinct file once", async () => {
    const image = png(9, 9, 3);
    await p.core.media.setAvatar(person("ann"), { bytes: image });
    await p.core.media.setAvatar(person("ben"), { bytes: image });
    const blob = p.core.media.avatarBlob(person("ann"), p.core.users.require(person("ann")).avatar!)!;
    expect(blob.size).toBeGreaterThan(0);
    expect(p.core.stats.overview(OPERATOR, true).mediaBytes).toBe(blob.size);
    p.core.close();
  });

  test("counts, the database's size, and per day the messages posted, the people active and the requests answered", () => {
    p.clock.set(Date.UTC(2031, 0, 10, 12));
    p.core.serve();
    const today = new Date(p.clock.now()).toISOString().slice(0, 10);
    p.core.sessions.open(person("ann"), "x");
    p.core.sessions.open(person("ben"), "x");
    const general = internalId(p, w.guilds.Club.channels.general);
    p.core.messages.send(person("ann"), general, { content: "one" });
    p.core.messages.send(person("ben"), general, { content: "two" });
    for (let i = 0; i < 5; i++) p.core.stats.requestServed();
    expect(() => p.core.stats.overview(person("ann"))).toThrow(DomainError);
    const o = p.core.stats.overview(person("root"));
    expect(o.counts).toEqual({ people: 3, disabledPeople: 0, administrators: 1, applications: 1, servers: 1, channels: 1, messages: 2 });
    expect(o.databaseBytes).toBeGreaterThan(0);
    expect(o.mediaBytes).toBe(0);
    expect(o.days).toHaveLength(30);
    expect(o.days.at(-1)).toEqual({ day: today, messages: 2, activePeople: 2, requests: 5 });
    expect(o.days[0].day).toBe("2030-12-12");

    // The next day: yesterday's figures stay; a session used again counts its person once today.
    p.clock.advance(86_400_000);
    const s = p.core.sessions.open(person("ann"), "y");
    p.core.sessions.authenticate(s.token);
    p.core.stats.requestServed();
    const next = p.core.stats.overview(OPERATOR, true);
    expect(next.days.at(-2)).toEqual({ day: today, messages: 2, activePeople: 2, requests: 5 });
    expect(next.days.at(-1)).toMatchObject({ activePeople: 1, requests: 1, messages: 0 });
    expect(p.store.db.query("SELECT count(*) AS n FROM activity_days WHERE day = ?").get(dayOf(p.clock.now()))).toEqual({ n: 1 });
  });

  test("nothing is counted before the core serves (operator commands never count)", () => {
    p.core.stats.requestServed();
    expect(p.core.stats.overview(OPERATOR, true).days.at(-1)!.requests).toBe(0);
  });
});
