/**
 * No HTML or script from a message, an embed, a component, or a person's, server's,
 * channel's, role's or bot's name ever runs in the web client, and javascript: URLs are
 * never links. Every payload below would set window.pwned if it ran; it must stay unset,
 * no dialog may open, and the payloads must show as the text they are.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { Client, GatewayIntentBits, type TextChannel } from "discord.js";
import { count, launch, message, serve, signIn, type Served } from "./support";

const SCRIPT = "<script>pwned=1</script>";
const IMG = "<img src=x onerror=pwned=2>";
const SVG = "<svg onload=pwned=3>";
const CONTENT = [
  SCRIPT,
  IMG,
  '<a href="javascript:pwned=4">anchor</a>',
  "[masked](javascript:pwned=5)",
  "<javascript:pwned=6>",
  '<iframe src="javascript:pwned=7"></iframe>',
  "[data](data:text/html,<script>pwned=8</script>)",
  "<style>*{display:none}</style>",
  '" onmouseover="pwned=9',
].join(" ");

let browser: Browser;
let s: Served;
let bot: Client;
let general: string;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: IMG }, { name: "bob" }],
    guilds: [
      {
        name: SVG,
        owner: "alice",
        members: ["bob"],
        roles: [{ name: "<b onmouseover=pwned=10>Mods</b>", members: ["bob"] }],
        channels: [{ name: "general" }, { name: "<img src=x onerror=pwned=11>" }],
      },
    ],
    applications: [{ name: "<script>pwned=12</script>", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: [SVG] }],
  });
  general = s.id(s.world.guilds[SVG].channels.general);
  bot = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages], rest: { api: `${s.base}/api` } });
  const ready = new Promise((r) => bot.once("clientReady", r));
  await bot.login(s.world.applications["<script>pwned=12</script>"].token);
  await ready;
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await bot?.destroy();
  await s?.p.stop();
});

describe("nothing from a message, embed, component or name runs", () => {
  test("a person's message, a bot's message, embed and components, and every name render as text", async () => {
    const role = s.id(s.world.guilds[SVG].roles["<b onmouseover=pwned=10>Mods</b>"]);
    await s.as("bob", "POST", `/channels/${general}/messages`, { content: `${CONTENT} <@&${role}>` });
    const channel = (await bot.channels.fetch(s.world.guilds[SVG].channels.general)) as TextChannel;
    await channel.send({
      content: `bot says ${SCRIPT} [masked](javascript:pwned=13)`,
      embeds: [
        {
          title: IMG,
          description: `${SCRIPT} [masked](javascript:pwned=15)`,
          color: 0xff0000,
          author: { name: SVG },
          fields: [{ name: IMG, value: "[field](javascript:pwned=18)", inline: true }],
          footer: { text: SCRIPT },
        },
      ],
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: IMG, custom_id: "b" },
            { type: 2, style: 5, label: "app link", url: "discord://pwned=22" },
          ],
        },
        { type: 1, components: [{ type: 3, custom_id: "s", placeholder: SVG, options: [{ label: SCRIPT, value: "v" }] }] },
      ] as never,
    });

    // The bot API refuses these URLs as the reference does (400 50035)...
    const hostile = {
      title: "stored",
      url: "javascript:pwned=14",
      author: { name: SVG, url: "javascript:pwned=16", icon_url: "javascript:pwned=17" },
      image: { url: "javascript:pwned=19" },
      thumbnail: { url: "data:text/html,<script>pwned=20</script>" },
      footer: { text: "stored footer", icon_url: "javascript:pwned=21" },
    };
    await expect(channel.send({ embeds: [hostile] })).rejects.toMatchObject({ status: 400, code: 50035 });
    // ...but a message stored by another door (or before that check) may carry them: the client honours none.
    const botUser = s.id(s.world.applications["<script>pwned=12</script>"].bot_user_id);
    s.p.core.messages.send(botUser, general, { content: "stored embed", embeds: [{ type: "rich", ...hostile }] });

    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      let dialogs = 0;
      a.on("dialog", () => dialogs++);
      // The payloads are there, as text.
      await message(a, /^bob <script>pwned=1<\/script> <img src=x onerror=pwned=2>/).waitFor();
      const botMessage = message(a, /^<script>pwned=12<\/script> bot says <script>pwned=1<\/script> masked$/);
      await botMessage.waitFor();
      await message(a, /^<script>pwned=12<\/script> stored embed$/)
        .getByText("stored footer")
        .waitFor();
      expect(await message(a, /@<b onmouseover=pwned=10>Mods<\/b>$/).count()).toBe(1);
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: SVG, exact: true }).waitFor();
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: "<img src=x onerror=pwned=11>", exact: true })
        .waitFor();
      await a.getByRole("complementary", { name: "Members" }).getByText(IMG).waitFor();
      expect(await botMessage.getByText(IMG).count()).toBe(3); // the embed's title, its field's name, a button's label
      expect(await botMessage.getByRole("button", { name: IMG }).count()).toBe(1);
      expect(await botMessage.getByRole("combobox", { name: SVG }).count()).toBe(1);

      // No javascript:, data: or discord: URL became a link or an image.
      for (const name of ["anchor", "masked", "data", "field", "app link", SVG])
        expect(await a.getByRole("link", { name }).count()).toBe(0);
      // The only link on the page is the client's own, to the developer portal.
      expect(await a.getByRole("link").allTextContents()).toEqual(["Developer portal"]);
      expect(await a.getByRole("img").count()).toBe(0);
      expect(await botMessage.getByRole("button", { name: "app link" }).isDisabled()).toBe(true);

      // Hovering and clicking what might carry a handler runs nothing either.
      await message(a, /^bob/).getByText("masked").click();
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: "<img src=x onerror=pwned=11>", exact: true })
        .click();
      await a.getByRole("textbox", { name: "Message #<img src=x onerror=pwned=11>" }).waitFor();
      await count(a.getByRole("textbox", { name: "Message #general" }), 0);
      expect(await a.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
      expect(dialogs).toBe(0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

test("the client's source has no HTML sinks: no innerHTML, no dangerouslySetInnerHTML, no eval", () => {
  const dir = join(import.meta.dir, "../../src/web");
  const files = (function walk(d: string): string[] {
    return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  })(dir).filter((f) => /\.(tsx?|html)$/.test(f));
  expect(files.length).toBeGreaterThan(10);
  const sinks = /innerHTML|outerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(/;
  expect(files.filter((f) => sinks.test(readFileSync(f, "utf8")))).toEqual([]);
});
