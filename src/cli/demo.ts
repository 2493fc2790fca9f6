/**
 * The quick start's demo world: on an empty database, a person, a server with
 * channels and an installed bot, printed once (the token is shown only this time).
 */
import type { Parley } from "../app";

export function createDemoWorld(p: Parley): string[] {
  if (p.core.users.count() > 0) {
    return [
      "demo: the database already holds a world; tokens are shown only once.",
      "      'parley app list' lists applications, 'parley app rotate <app>' prints a new token.",
    ];
  }
  const w = p.seed({
    users: [{ name: "demo", admin: true, password: "parley-demo" }],
    guilds: [{ name: "Demo Server", owner: "demo", channels: [{ name: "general" }, { name: "random" }] }],
    applications: [
      {
        name: "DemoBot",
        owner: "demo",
        intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MESSAGE_REACTIONS", "DIRECT_MESSAGES", "MESSAGE_CONTENT"],
        approved_privileged: ["MESSAGE_CONTENT"],
        install: ["Demo Server"],
      },
    ],
  });
  const g = w.guilds["Demo Server"];
  const a = w.applications.DemoBot;
  return [
    "demo world created:",
    `  person       demo (password parley-demo, administrator) id ${w.users.demo.id}`,
    `  server       Demo Server id ${g.id}`,
    ...Object.entries(g.channels).map(([n, id]) => `  channel      #${n} id ${id}`),
    `  application  DemoBot id ${a.id}, bot user id ${a.bot_user_id}`,
    `  bot token    ${a.token}`,
    `  install link ${p.api.urls.portal}/install/${a.id}`,
    "  (the token is shown only now; 'parley app rotate DemoBot' mints a new one)",
  ];
}
