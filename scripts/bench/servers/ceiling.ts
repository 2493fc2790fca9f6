// Child process of the path benches: the ceilings Parley is measured against, each in
// its own process like Parley.
// - "app": what the work minimally takes in the same stack, an Elysia + TypeBox app that
//   authenticates a bot token (the token row read by id, the secret's digest compared),
//   then either validates a message body, inserts it into SQLite (file, WAL,
//   synchronous NORMAL, one transaction) and publishes the frame to every socket on
//   /gateway (POST), or reads one message by id (GET: the authenticated point select).
//   Answers and frames are padded to Parley's sizes for the same message.
// - "raw": Bun.serve answering GET /users/@me with the bytes and headers Parley answers.
// - "minimal": the least a message post takes in the same stack (issue 30's yardstick):
//   Elysia, the bot token looked up in a Map, the body checked by a compiled TypeBox
//   schema, one prepared INSERT in a transaction (WAL, synchronous NORMAL), one publish
//   of the frame to every socket on /gateway, and the message as the JSON answer,
//   unpadded.
// - "minimal-indexed": the minimal app with the one index any chat's history needs,
//   messages by (channel_id, id), so that the post's row beside it says what that index
//   alone costs a post (both apps post to 50 channels in turn).
//   bun servers/ceiling.ts app <answerBytes> <frameBytes>
//   bun servers/ceiling.ts raw <file holding {body, headers}>
//   bun servers/ceiling.ts minimal|minimal-indexed
import { Database } from "bun:sqlite";
import { Elysia, t } from "elysia";
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const mode = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), "parley-ceiling-"));
process.on("SIGTERM", () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});

function rawServer(file: string) {
  const sample = JSON.parse(readFileSync(file, "utf8")) as { body: string; headers: Record<string, string> };
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(sample.body, { headers: sample.headers }) });
  console.log(JSON.stringify({ port: server.port }));
}

function appServer(answerBytes: number, frameBytes: number) {
  const db = walDatabase();
  db.exec("CREATE TABLE bots (id TEXT PRIMARY KEY, version INTEGER NOT NULL, token_hash TEXT NOT NULL, username TEXT NOT NULL)");
  db.exec(
    "CREATE TABLE messages (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, author_id TEXT NOT NULL, content TEXT NOT NULL, nonce TEXT, created_at INTEGER NOT NULL) WITHOUT ROWID",
  );
  db.exec("CREATE INDEX messages_channel ON messages (channel_id, id)");
  const sha = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
  const botId = "1400000000000000001";
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  db.query("INSERT INTO bots VALUES (?, 1, ?, 'CeilingBot')").run(botId, sha(secret));
  const token = `${Buffer.from(botId).toString("base64").replace(/=+$/, "")}.${Buffer.from("1").toString("base64url")}.${secret}`;
  const botRow = db.query("SELECT version, token_hash, username FROM bots WHERE id = ?");
  const insert = db.query("INSERT INTO messages (id, channel_id, author_id, content, nonce, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const insertTx = db.transaction((r: [string, string, string, string, string | null, number]) => insert.run(...r));
  const byId = db.query("SELECT * FROM messages WHERE id = ?");
  const digests = new Map<string, string>();

  /** The bot the header names, or null: the token row is read on every request. */
  function auth(header: string | null): { id: string; username: string } | null {
    if (!header || !header.startsWith("Bot ")) return null;
    const parts = header.slice(4).split(".");
    if (parts.length !== 3) return null;
    const id = Buffer.from(parts[0], "base64").toString();
    const row = botRow.get(id) as { version: number; token_hash: string; username: string } | null;
    if (!row || row.version !== Number(Buffer.from(parts[1], "base64url").toString())) return null;
    let digest = digests.get(parts[2]);
    if (digest === undefined) digests.set(parts[2], (digest = sha(parts[2])));
    return digest === row.token_hash ? { id, username: row.username } : null;
  }

  const messageObject = (
    m: { id: string; channel_id: string; content: string; nonce: string | null; created_at: number },
    bot: { id: string; username: string },
  ) => ({
    id: m.id,
    type: 0,
    channel_id: m.channel_id,
    author: { id: bot.id, username: bot.username, global_name: null, discriminator: "0", avatar: null, bot: false },
    content: m.content,
    timestamp: new Date(m.created_at).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
    flags: 0,
    ...(m.nonce !== null ? { nonce: m.nonce } : {}),
  });
  const padded = (o: Record<string, unknown>, bytes: number) => {
    const pad = bytes - JSON.stringify(o).length - 10;
    return pad > 0 ? { ...o, pad: "x".repeat(pad) } : o;
  };

  let seq = 0;
  let server: ReturnType<typeof Bun.serve> | null = null;
  const unauthorized = () =>
    new Response('{"message": "401: Unauthorized", "code": 0}', { status: 401, headers: { "Content-Type": "application/json" } });
  const app = new Elysia()
    .post(
      "/api/v10/channels/:channel_id/messages",
      ({ params, body, request }) => {
        const bot = auth(request.headers.get("authorization"));
        if (!bot) return unauthorized();
        const row = {
          id: Bun.randomUUIDv7(),
          channel_id: params.channel_id,
          content: body.content,
          nonce: body.nonce === undefined ? null : String(body.nonce),
          created_at: Date.now(),
        };
        insertTx([row.id, row.channel_id, bot.id, row.content, row.nonce, row.created_at]);
        const d = messageObject(row, bot);
        server!.publish(
          "all",
          `{"op":0,"s":${++seq},"t":"MESSAGE_CREATE","d":${JSON.stringify(padded({ ...d, guild_id: "1", channel_type: 0 }, frameBytes - 40))}}`,
        );
        return padded(d, answerBytes);
      },
      {
        body: t.Object({
          content: t.String({ maxLength: 2000 }),
          nonce: t.Optional(t.Union([t.String({ maxLength: 25 }), t.Integer()])),
          tts: t.Optional(t.Boolean()),
        }),
      },
    )
    .get("/api/v10/channels/:channel_id/messages/:message_id", ({ params, request, set }) => {
      const bot = auth(request.headers.get("authorization"));
      if (!bot) return unauthorized();
      const m = byId.get(params.message_id) as {
        id: string;
        channel_id: string;
        content: string;
        nonce: string | null;
        created_at: number;
      } | null;
      if (!m || m.channel_id !== params.channel_id) {
        set.status = 404;
        return { message: "Unknown Message", code: 10008 };
      }
      return padded(messageObject(m, bot), answerBytes);
    });
  server = serveWithGateway(app);
  const channels = Array.from({ length: 50 }, (_, i) => String(1_400_000_000_000_000_100n + BigInt(i)));
  const messages = channels.map((c) => {
    const id = Bun.randomUUIDv7();
    insert.run(id, c, botId, "the quick brown fox jumps over the lazy dog, message 1", null, Date.now());
    return id;
  });
  console.log(JSON.stringify({ port: server.port, token, channels, messages }));
}

/** A file-backed SQLite database as Parley opens its own: WAL, synchronous NORMAL. */
function walDatabase(): Database {
  const db = new Database(join(dir, "ceiling.db"), { create: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  return db;
}

/** A server with the app's routes and a /gateway whose sockets all join one topic. */
function serveWithGateway(app: { fetch(req: Request): Response | Promise<Response> }): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      if (new URL(req.url).pathname === "/gateway")
        return srv.upgrade(req, { data: undefined }) ? undefined : new Response("no", { status: 400 });
      return app.fetch(req);
    },
    websocket: {
      open(ws) {
        ws.subscribe("all");
      },
      message() {},
    },
  });
}

function minimalServer(indexed: boolean) {
  const db = walDatabase();
  db.exec(
    "CREATE TABLE messages (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, author_id TEXT NOT NULL, content TEXT NOT NULL, nonce TEXT, created_at INTEGER NOT NULL) WITHOUT ROWID",
  );
  if (indexed) db.exec("CREATE INDEX messages_channel ON messages (channel_id, id)");
  const insert = db.query("INSERT INTO messages (id, channel_id, author_id, content, nonce, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const insertTx = db.transaction((r: [string, string, string, string, string | null, number]) => insert.run(...r));
  const bot = { id: "1400000000000000001", username: "MinimalBot" };
  const token = `${Buffer.from(bot.id).toString("base64").replace(/=+$/, "")}.MQ.${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
  const bots = new Map([[`Bot ${token}`, bot]]);
  const body = TypeCompiler.Compile(
    Type.Object({
      content: Type.String({ maxLength: 2000 }),
      nonce: Type.Optional(Type.Union([Type.String({ maxLength: 25 }), Type.Integer()])),
      tts: Type.Optional(Type.Boolean()),
    }),
  );
  let seq = 0;
  let server: ReturnType<typeof Bun.serve> | null = null;
  const app = new Elysia().post("/api/v10/channels/:channel_id/messages", ({ params, body: b, request, set }) => {
    const author = bots.get(request.headers.get("authorization") ?? "");
    if (!author) {
      set.status = 401;
      return { message: "401: Unauthorized", code: 0 };
    }
    if (!body.Check(b)) {
      set.status = 400;
      return { message: "Invalid Form Body", code: 50035 };
    }
    const id = Bun.randomUUIDv7();
    const nonce = b.nonce === undefined ? null : String(b.nonce);
    const now = Date.now();
    insertTx([id, params.channel_id, author.id, b.content, nonce, now]);
    const m = {
      id,
      type: 0,
      channel_id: params.channel_id,
      author: { id: author.id, username: author.username, global_name: null, discriminator: "0", avatar: null, bot: true },
      content: b.content,
      timestamp: new Date(now).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      components: [],
      pinned: false,
      flags: 0,
      ...(nonce !== null ? { nonce } : {}),
    };
    server!.publish("all", `{"op":0,"s":${++seq},"t":"MESSAGE_CREATE","d":${JSON.stringify(m)}}`);
    return m;
  });
  server = serveWithGateway(app);
  const channels = Array.from({ length: 50 }, (_, i) => String(1_400_000_000_000_000_100n + BigInt(i)));
  console.log(JSON.stringify({ port: server.port, token, channels, messages: [] }));
}

if (mode === "raw") rawServer(process.argv[3]);
else if (mode === "minimal" || mode === "minimal-indexed") minimalServer(mode === "minimal-indexed");
else appServer(Number(process.argv[3] ?? 0), Number(process.argv[4] ?? 0));
