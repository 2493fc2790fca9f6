/**
 * The quick start's demo world: on an empty database, a person, a server with
 * channels and an installed bot, printed once (the token is shown only this time) with
 * the next steps: where to go, whom to sign in as, and a bot to run.
 */
import type { Parley } from "../app";
import type { Urls } from "../config";

const PERSON = "demo";
const PASSWORD = "parley-demo";

/**
 * Create the demo world if the database is empty; answers the banner to print once listening.
 * `operator` is how the operator's commands reach this data (serve.ts, operatorCommand):
 * the compiled executable is `parley`, not `npx parley`, and a data directory other than
 * the default needs its --data, or the command printed opens (or refuses) another one.
 */
export function createDemoWorld(p: Parley, operator: [string, string] = ["npx parley", ""]): (urls: Urls) => string[] {
  const [cmd, data] = operator;
  // An in-memory world dies with the process: no other process can reach it, the portal can.
  // On Postgres a command would need the database's URL, which is not printed: the portal too.
  const reachable = p.config.data !== ":memory:" && p.config.database === null;
  if (p.core.users.count() > 0) {
    return (urls) => [
      "demo: the database already holds a world; tokens are shown only once.",
      reachable
        ? `      '${cmd} app list${data}' lists applications, '${cmd} app rotate DemoBot${data}' prints a new token.`
        : `      the developer portal, ${urls.portal}, lists applications and resets their tokens.`,
    ];
  }
  const w = p.seed({
    users: [{ name: PERSON, admin: true, password: PASSWORD }],
    guilds: [{ name: "Demo Server", owner: PERSON, channels: [{ name: "general" }, { name: "random" }] }],
    applications: [
      {
        name: "DemoBot",
        owner: PERSON,
        intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MESSAGE_REACTIONS", "DIRECT_MESSAGES", "MESSAGE_CONTENT"],
        approved_privileged: ["MESSAGE_CONTENT"],
        install: ["Demo Server"],
      },
    ],
  });
  // The people's API speaks internal ids; bots see snowflakes. Show both, labelled.
  const internal = (flake: string) => p.api.flakes.uuid(flake) ?? "?";
  const g = w.guilds["Demo Server"];
  const a = w.applications.DemoBot;
  return (urls) => [
    "demo world created (the password and token below are not printed again):",
    `  person       ${PERSON}, password ${PASSWORD}, administrator; id ${internal(w.users[PERSON].id)}`,
    `  server       Demo Server; id ${internal(g.id)} (bots see ${g.id})`,
    ...Object.entries(g.channels).map(([n, id]) => `  channel      #${n}; id ${internal(id)} (bots see ${id})`),
    `  application  DemoBot; application id ${a.id}, bot user id ${a.bot_user_id}`,
    `  bot token    ${a.token}`,
    `  install link ${urls.portal}/install/${a.id}`,
    "",
    "next steps:",
    `  1. open ${urls.base}/ in a browser and sign in as ${PERSON} with password ${PASSWORD}; talk to DemoBot in #general`,
    `     (the APIs are described at ${urls.base}/api/docs)`,
    "  2. run DemoBot with discord.js 14 (npm install discord.js; node bot.js), bot.js being:",
    `     const { Client, GatewayIntentBits: I } = require("discord.js");`,
    `     const bot = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: "${urls.base}/api" } });`,
    `     bot.on("messageCreate", (m) => m.content === "!ping" && m.reply("pong")); bot.login("${a.token}");`,
    `     (or manage it at ${urls.portal}, and approve intents at ${urls.base}/admin)`,
    reachable
      ? `  3. in another terminal: ${cmd} app list${data}, ${cmd} app rotate DemoBot${data} (a new token; this one stops)`
      : `  3. rotate DemoBot's token (a new one; this one stops) in the portal, ${urls.portal}`,
    "",
  ];
}
