// A discord.js 14 bot for files, avatars and a server's emoji (issue 31), run against a
// real Parley with `rest: { api, cdn }` pointed at it (docs/compatibility.md). It prints
// a JSON line per event: ready (the server's emoji), each person's message (attachments
// downloaded from their url, the author's displayAvatarURL() downloaded), and "!roles"
// answered with a reaction of the server's first emoji. CONTENT "no" leaves the
// MESSAGE_CONTENT intent out, as a bot not approved for it does.
// Usage: node js_files_bot.cjs BASE TOKEN [CONTENT=yes|no]
const { createHash } = require("node:crypto");
const { Client, GatewayIntentBits: I } = require("discord.js");

const [base, token, content = "yes"] = process.argv.slice(2);
const client = new Client({
  intents: [I.Guilds, I.GuildMessages, I.GuildMessageReactions, ...(content === "no" ? [] : [I.MessageContent])],
  rest: { api: base + "/api", cdn: base },
});
const emit = (o) => console.log(JSON.stringify(o));
const sha = (b) => createHash("sha256").update(b).digest("hex");
const download = async (url) => sha(Buffer.from(await (await fetch(url)).arrayBuffer()));

client.on("ready", () => {
  const g = client.guilds.cache.first();
  emit({ event: "ready", emojis: g.emojis.cache.map((e) => [e.id, e.name]), icon: g.iconURL() });
});

client.on("messageCreate", async (m) => {
  if (m.author.bot) return;
  try {
    if (m.content === "!roles") {
      await m.react(m.guild.emojis.cache.first());
      return emit({ scenario: "react", ok: true });
    }
    const files = [];
    for (const a of m.attachments.values())
      files.push({
        name: a.name,
        size: a.size,
        contentType: a.contentType,
        width: a.width,
        height: a.height,
        description: a.description,
        sha256: await download(a.url),
      });
    const avatarURL = m.author.displayAvatarURL();
    emit({ scenario: "message", id: m.id, content: m.content, files, avatarURL, avatar: await download(avatarURL) });
  } catch (e) {
    emit({ event: "error", text: String(e && e.stack) });
  }
});

client.login(token).catch((e) => {
  emit({ event: "error", text: String(e) });
  process.exit(3);
});
