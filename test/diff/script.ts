/**
 * The scripted session of the differential test: every surface, the way a day of use
 * reaches it. Bots on REST and the gateway (several sessions, different intents, a
 * RESUME, a late IDENTIFY), people on their API and live connections, the harness acting
 * and reading, and the operator's CLI writing on its own connection to the database.
 * Every answer and frame is recorded (record.ts); between steps the virtual clock moves
 * past the rate-limit windows, and every connection is synced, so each step's frames are
 * all in before the next begins.
 */
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import type { FastPaths } from "../../src/config/fast-paths";
import { main } from "../../src/cli";
import { rotateToken } from "../../src/wire/tokens";
import { Gw, I } from "../gateway/client";
import { LiveConn } from "../http/live-client";
import { Recorder } from "./record";
import { png } from "../support/png";

export const WORLD = {
  start_time: "2026-03-01T12:00:00.000Z",
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [{ name: "Staff", permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS", "MANAGE_MESSAGES"], members: ["EchoBot"] }],
      channels: [{ name: "general" }, { name: "random" }],
    },
  ],
  applications: [
    {
      name: "EchoBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES", "GUILD_MESSAGE_REACTIONS", "GUILD_MESSAGE_TYPING"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    { name: "Quiet", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
    { name: "Members", owner: "alice", intents: ["GUILDS", "GUILD_MEMBERS"], approved_privileged: ["GUILD_MEMBERS"], install: ["Lab"] },
  ],
};

const ECHO = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT | I.DIRECT_MESSAGES | I.GUILD_MESSAGE_REACTIONS | I.GUILD_MESSAGE_TYPING;
const QUIET = I.GUILDS | I.GUILD_MESSAGES;
const MEMBERS = I.GUILDS | I.GUILD_MEMBERS;
const THUMBS = encodeURIComponent("👍");

type Conn = { kind: "gw"; c: Gw; mark: number } | { kind: "live"; c: LiveConn; mark: number };

export interface SessionOptions {
  /** Postgres (a URL) instead of SQLite in `dir`: the store engine under the session (test/pg/differential.test.ts). */
  database?: string;
  /**
   * How the token is rotated beside the server: by the CLI on its own connection (the
   * default), or in the server's process (the operator's commands are SQLite's only, so
   * a comparison with a Postgres node rotates in process on both engines).
   */
  rotate?: "cli" | "in-process";
}

/** One run of the session; answers what it recorded. */
export async function runSession(dir: string, fastPaths: Partial<FastPaths>, opts: SessionOptions = {}): Promise<Recorder> {
  const config = testConfig({
    data: dir,
    dbPath: `${dir}/parley.db`,
    heartbeatIntervalMs: 41_250,
    fastPaths,
    database: opts.database ?? null,
  });
  const p = createParley(config);
  const rec = new Recorder(p);
  rec.engine = p.store.engine.kind;
  const s = new Session(p, rec, dir, opts.rotate ?? "cli");
  try {
    await s.run();
    Object.assign(rec.fanOut, p.gateway.fanOutCounts());
  } finally {
    await s.closeAll();
    await p.stop();
  }
  return rec;
}

class Session {
  private readonly conns = new Map<string, Conn>();
  private w!: ReturnType<Parley["seed"]>;
  private tokens = new Map<string, string>();

  constructor(
    private readonly p: Parley,
    private readonly rec: Recorder,
    private readonly dir: string,
    private readonly rotation: "cli" | "in-process",
  ) {}

  private flake(kind: "channel" | "guild" | "role", name: string): string {
    const lab = this.w.guilds.Lab;
    return kind === "guild" ? lab.id : kind === "channel" ? lab.channels[name] : lab.roles[name];
  }

  private uuid(flake: string): string {
    return this.p.api.flakes.uuid(flake)!;
  }

  private bot(name: string, method: string, path: string, body?: unknown) {
    return this.rec.http(name, method, `/api/v10${path}`, { headers: { Authorization: `Bot ${this.tokens.get(name)}` }, body });
  }

  private person(name: string, method: string, path: string, body?: unknown) {
    return this.rec.http(name, method, `/api/client/v1${path}`, {
      headers: { Authorization: `Session ${this.w.users[name].token}` },
      body,
    });
  }

  private harness(method: string, path: string, body?: unknown) {
    return this.rec.http("harness", method, `/api/harness/v1${path}`, { body });
  }

  private async gateway(label: string, app: string, intents: number): Promise<Gw> {
    const c = await Gw.open(this.p);
    this.conns.set(label, { kind: "gw", c, mark: 0 });
    const ready = await c.identify(this.tokens.get(app)!, intents);
    for (const _ of ready.d.guilds) await c.dispatch("GUILD_CREATE");
    return c;
  }

  private gw(label: string): Gw {
    return (this.conns.get(label) as { c: Gw }).c;
  }

  /** Every open connection synced, then each one's new frames recorded (ACKs and pongs are the script's own). */
  private async endStep(): Promise<void> {
    for (const conn of this.conns.values()) if (!conn.c.isClosed) await conn.c.sync();
    this.rec.sawCohorts();
    for (const [label, conn] of this.conns) {
      const frames = conn.c.frames.slice(conn.mark).filter((f: any) => f.op !== 11 && f.op !== "pong");
      conn.mark = conn.c.frames.length;
      this.rec.add(`frames ${label}`, frames);
    }
  }

  private async step(name: string, fn: () => Promise<void>): Promise<void> {
    this.rec.step = name;
    // Past every rate-limit window of the step before (the clock is virtual from the seed on).
    this.p.clock.advance(6_000);
    await fn();
    await this.endStep();
  }

  async closeAll(): Promise<void> {
    for (const conn of this.conns.values()) await conn.c.close();
  }

  async run(): Promise<void> {
    this.w = this.p.seed(structuredClone(WORLD));
    for (const [name, a] of Object.entries(this.w.applications)) this.tokens.set(name, a.token);
    this.p.listen();
    this.rec.add("seed", this.w);
    await this.step("connect", () => this.connect());
    await this.step("posts", () => this.posts());
    await this.step("edit, react, history", () => this.editReactHistory());
    await this.step("roles and overwrites", () => this.roles());
    await this.step("bulk delete and webhooks", () => this.bulkAndWebhooks());
    await this.step("interaction", () => this.interaction());
    await this.step("refusals", () => this.refusals());
    await this.step("people", () => this.people());
    await this.step("files", () => this.files());
    await this.step("sessions come and go", () => this.sessions());
    await this.step("a mixed cohort, and a resume from an older seq", () => this.resumeOlder());
    await this.step("dm and typing", () => this.dmAndTyping());
    await this.step("token rotated beside the server", () => this.rotate());
    await this.step("harness reads", () => this.harnessReads());
  }

  private async connect(): Promise<void> {
    await this.gateway("EchoBot#1", "EchoBot", ECHO);
    await this.gateway("EchoBot#2", "EchoBot", ECHO);
    await this.gateway("Quiet#1", "Quiet", QUIET);
    await this.gateway("Quiet#2", "Quiet", QUIET);
    await this.gateway("Members#1", "Members", MEMBERS);
    for (const name of ["alice", "bob"]) {
      const { c } = await LiveConn.hello(this.p, this.w.users[name].token);
      this.conns.set(`live ${name}`, { kind: "live", c, mark: 0 });
    }
    await this.bot("EchoBot", "GET", "/users/@me");
    await this.bot("EchoBot", "GET", `/channels/${this.flake("channel", "general")}`);
  }

  private general = "";
  private first = "";

  private async posts(): Promise<void> {
    const general = (this.general = this.flake("channel", "general"));
    this.first = (await this.bot("EchoBot", "POST", `/channels/${general}/messages`, { content: "hello, Lab" })).body.id;
    await this.bot("EchoBot", "POST", `/channels/${general}/messages`, {
      content: "a reply",
      message_reference: { message_id: this.first },
    });
    await this.bot("EchoBot", "POST", `/channels/${general}/messages`, { content: `hey <@${this.w.applications.Quiet.bot_user_id}>` });
    for (let i = 0; i < 2; i++)
      await this.bot("EchoBot", "POST", `/channels/${general}/messages`, { content: "once", nonce: "n-1", enforce_nonce: true });
  }

  private async editReactHistory(): Promise<void> {
    const { general, first } = this;
    await this.bot("EchoBot", "PATCH", `/channels/${general}/messages/${first}`, { content: "hello again, Lab" });
    await this.bot("EchoBot", "PUT", `/channels/${general}/messages/${first}/reactions/${THUMBS}/@me`);
    await this.bot("Quiet", "GET", `/channels/${general}/messages/${first}`);
    await this.bot("EchoBot", "DELETE", `/channels/${general}/messages/${first}/reactions/${THUMBS}/@me`);
    const page = await this.bot("EchoBot", "GET", `/channels/${general}/messages?limit=3`);
    await this.bot("Quiet", "GET", `/channels/${general}/messages?limit=2&before=${page.body[1].id}`);
  }

  private async roles(): Promise<void> {
    const g = this.flake("guild", "Lab");
    const role = (await this.bot("EchoBot", "POST", `/guilds/${g}/roles`, { name: "Helpers", color: 255 })).body.id;
    await this.bot("EchoBot", "PUT", `/guilds/${g}/members/${this.w.users.bob.id}/roles/${role}`);
    await this.bot("EchoBot", "PUT", `/channels/${this.flake("channel", "random")}/permissions/${role}`, { type: 0, deny: "2048" });
    await this.person("bob", "POST", `/channels/${this.uuid(this.flake("channel", "random"))}/messages`, { content: "can I?" });
    await this.bot("EchoBot", "POST", `/channels/${this.general}/messages`, { content: "after the role" });
    await this.bot("Members", "GET", `/guilds/${g}/members/${this.w.users.bob.id}`);
    // A session after the change: its GUILD_CREATE shows the new role.
    await this.gateway("Members#2", "Members", MEMBERS);
  }

  private async bulkAndWebhooks(): Promise<void> {
    const { general } = this;
    const a = (await this.bot("EchoBot", "POST", `/channels/${general}/messages`, { content: "soon gone 1" })).body.id;
    const b = (await this.bot("EchoBot", "POST", `/channels/${general}/messages`, { content: "soon gone 2" })).body.id;
    await this.bot("EchoBot", "POST", `/channels/${general}/messages/bulk-delete`, { messages: [a, b] });
    const hook = (await this.bot("EchoBot", "POST", `/channels/${general}/webhooks`, { name: "Alerts" })).body;
    await this.rec.http("webhook", "POST", `/api/v10/webhooks/${hook.id}/${hook.token}?wait=true`, { body: { content: "from the hook" } });
    await this.bot("EchoBot", "GET", `/channels/${general}/webhooks`);
  }

  private async interaction(): Promise<void> {
    const app = this.w.applications.EchoBot.id;
    await this.bot("EchoBot", "POST", `/applications/${app}/commands`, { name: "ping", description: "Ping the bot" });
    const run = await this.harness("POST", "/users/alice/interactions", { channel_id: this.general, application_id: app, name: "ping" });
    const frame = await Promise.any(
      ["EchoBot#1", "EchoBot#2"].map((l) => this.gw(l).next((f) => f.t === "INTERACTION_CREATE" && f.d.id === run.body.id)),
    );
    await this.rec.http("EchoBot", "POST", `/api/v10/interactions/${frame.d.id}/${frame.d.token}/callback`, {
      body: { type: 4, data: { content: "pong" } },
    });
    await this.rec.http("EchoBot", "POST", `/api/v10/webhooks/${app}/${frame.d.token}`, { body: { content: "and more" } });
    await this.harness("GET", `/interactions/${run.body.id}`);
  }

  private async refusals(): Promise<void> {
    const { general, first } = this;
    await this.bot("EchoBot", "GET", "/channels/1234567890123456789");
    await this.bot("Quiet", "POST", `/guilds/${this.flake("guild", "Lab")}/roles`, { name: "Nope" });
    await this.bot("EchoBot", "POST", `/channels/${general}/messages`, {});
    await this.bot("Quiet", "PUT", `/channels/${general}/messages/${first}/reactions/${THUMBS}/@me`);
    await this.bot("Quiet", "PUT", `/channels/${general}/messages/${first}/reactions/%E2%9D%A4/@me`);
  }

  private async people(): Promise<void> {
    const general = this.uuid(this.general);
    const mine = (await this.person("bob", "POST", `/channels/${general}/messages`, { content: "bob here" })).body.id;
    await this.person("bob", "PATCH", `/channels/${general}/messages/${mine}`, { content: "bob was here" });
    await this.person("alice", "PUT", `/channels/${general}/messages/${mine}/reactions/${THUMBS}`);
    await this.person("alice", "GET", `/channels/${general}/messages?limit=5`);
    await this.person("bob", "DELETE", `/channels/${general}/messages/${mine}`);
    await this.harness("POST", "/users/alice/dms", { recipient_id: this.w.users.bob.id, content: "psst" });
    await this.harness("POST", "/users/bob/messages", {
      channel_id: this.general,
      content: `hi <@${this.w.applications.EchoBot.bot_user_id}>`,
    });
  }

  /**
   * A person's files: an upload (its slot, then its bytes) named by a message at once,
   * the same bytes again (stored once), its signed link fetched, and an avatar taken from
   * an upload. The hashing worker and the flush behind the answer (config/fast-paths.ts)
   * must change none of it.
   */
  private async files(): Promise<void> {
    const general = this.uuid(this.general);
    const picture = png(5, 3);
    const upload = async (path: string, body: unknown) => {
      const r = await this.person("alice", "POST", path, body);
      const slot = Array.isArray(r.body) ? r.body[0] : r.body;
      await this.rec.http("alice", "PUT", `/api/client/v1/uploads/${slot.id}`, {
        headers: { Authorization: `Session ${this.w.users.alice.token}`, "Content-Type": "application/octet-stream" },
        raw: picture,
      });
      return slot.id as string;
    };
    const files = { files: [{ filename: "box.png", size: picture.byteLength }] };
    for (const content of ["a picture", "the same picture"]) {
      const id = await upload(`/channels/${general}/attachments`, files);
      const m = await this.person("alice", "POST", `/channels/${general}/messages`, { content, attachments: [{ upload_id: id }] });
      // Fetched outside the recorder's check of GETs that write: a file is served over several turns of
      // the event loop, in which the search index may join its waiting entries on its own timer.
      const res = await fetch(`${this.p.api.urls.base}${m.body.attachments[0].url}`);
      const body = new Bun.CryptoHasher("sha256").update(await res.arrayBuffer()).digest("hex");
      this.rec.add("anyone GET the attachment", { status: res.status, type: res.headers.get("content-type"), body });
    }
    const avatar = await upload("/uploads", { purpose: "avatar", filename: "me.png", size: picture.byteLength });
    await this.person("alice", "PATCH", "/users/@me", { avatar_upload: avatar });
  }

  private async sessions(): Promise<void> {
    const quiet = this.gw("Quiet#2");
    const sessionId = quiet.frames.find((f) => f.t === "READY")!.d.session_id;
    const seq = quiet.lastSeq;
    await quiet.sync();
    this.p.gateway.disconnect(sessionId, 4000);
    this.rec.add("Quiet#2 closed", await quiet.closed);
    for (const n of [1, 2]) await this.bot("EchoBot", "POST", `/channels/${this.general}/messages`, { content: `while away ${n}` });
    // A session with other intents joins between two posts (EchoBot without content).
    await this.gateway("EchoBot#3", "EchoBot", QUIET);
    await this.bot("EchoBot", "POST", `/channels/${this.general}/messages`, { content: "while away 3" });
    const back = await Gw.open(this.p);
    this.conns.set("Quiet#2 resumed", { kind: "gw", c: back, mark: 0 });
    back.send({ op: 6, d: { token: this.tokens.get("Quiet"), session_id: sessionId, seq } });
    await back.dispatch("RESUMED");
    await this.bot("EchoBot", "POST", `/channels/${this.general}/messages`, { content: "welcome back" });
  }

  /**
   * Sessions of two bots with the same intents identify back to back, so they share a
   * seq, and a person's post (one payload for all) puts them in one cohort. The bot's own
   * posts then differ for its session alone (it sees its own content): the cohort keeps
   * the payload most got and the bot that differs. Two of them then resume from a seq
   * older than frames they had while live, as clients whose sockets died with frames
   * unread: each gets them back in the view it was sent, whichever ring recorded them.
   */
  private async resumeOlder(): Promise<void> {
    await this.gateway("Quiet#3", "Quiet", QUIET);
    await this.gateway("Quiet#4", "Quiet", QUIET);
    await this.gateway("EchoBot#4", "EchoBot", QUIET);
    await this.person("bob", "POST", `/channels/${this.uuid(this.general)}/messages`, { content: "bob, to everyone" });
    const older = new Map<string, number>();
    for (const label of ["Quiet#3", "EchoBot#4"]) {
      await this.gw(label).sync();
      older.set(label, this.gw(label).lastSeq);
    }
    for (const n of [1, 2]) await this.bot("EchoBot", "POST", `/channels/${this.general}/messages`, { content: `seen live ${n}` });
    await this.person("bob", "POST", `/channels/${this.uuid(this.general)}/messages`, { content: "bob, seen live" });
    for (const [label, seq] of older) await this.resumeFrom(label, label.split("#")[0], seq);
  }

  /** The session's socket closes (4000), and a new one resumes it from `seq`. */
  private async resumeFrom(label: string, app: string, seq: number): Promise<void> {
    const gone = this.gw(label);
    await gone.sync();
    const sessionId = gone.frames.find((f) => f.t === "READY")!.d.session_id;
    this.p.gateway.disconnect(sessionId, 4000);
    this.rec.add(`${label} closed`, await gone.closed);
    const back = await Gw.open(this.p);
    this.conns.set(`${label} resumed`, { kind: "gw", c: back, mark: 0 });
    back.send({ op: 6, d: { token: this.tokens.get(app), session_id: sessionId, seq } });
    await back.dispatch("RESUMED");
  }

  private async dmAndTyping(): Promise<void> {
    const dm = (await this.bot("EchoBot", "POST", "/users/@me/channels", { recipient_id: this.w.users.bob.id })).body.id;
    await this.bot("EchoBot", "POST", `/channels/${dm}/messages`, { content: "a word in private" });
    await this.bot("EchoBot", "POST", `/channels/${this.general}/typing`);
    await this.person("alice", "POST", `/channels/${this.uuid(this.general)}/typing`);
  }

  private async rotate(): Promise<void> {
    if (this.rotation === "cli") {
      const lines: string[] = [];
      const code = await main(
        ["app", "rotate", "EchoBot", "--data", this.dir],
        {},
        (l) => lines.push(l),
        () => {},
      );
      this.rec.add("cli app rotate", { code, printed: lines.length });
    } else
      this.rec.add("app rotate in process", {
        rotated: rotateToken(this.p.core.apps, this.p.api.flakes, this.uuid(this.w.applications.EchoBot.id)).length > 0,
      });
    for (const label of ["EchoBot#1", "EchoBot#2", "EchoBot#3", "EchoBot#4 resumed"])
      this.rec.add(`${label} closed`, await this.gw(label).closed);
    await this.bot("EchoBot", "GET", "/users/@me");
  }

  private async harnessReads(): Promise<void> {
    await this.harness("GET", "/events?after=0");
    await this.harness("GET", `/applications/${this.w.applications.Quiet.id}/transcript`);
    await this.harness("GET", `/applications/${this.w.applications.Quiet.id}/sessions`);
  }
}
