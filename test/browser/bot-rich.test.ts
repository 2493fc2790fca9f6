/**
 * What a real discord.js bot writes, as a person reads it: embeds with every field the
 * spec allows, several on one message, and the Markdown the reference renders in a
 * message's text (emphasis, code, quotes, spoilers, headers, lists, masked links,
 * mentions, custom emoji and timestamps).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import type { TextChannel } from "discord.js";
import { png } from "../support/png";
import { channelEntry, launch, message, signIn } from "./support";
import { bench, watch, type Bench } from "./bot-support";

let browser: Browser;
let b: Bench;
let widgets: TextChannel;

beforeAll(async () => {
  b = await bench([], (s) =>
    s.p.core.emojis.create(s.id(s.world.users.alice.id), s.id(s.world.guilds.Lab.id), { name: "party", image: { bytes: png(8, 8, 9) } }),
  );
  widgets = (await b.bot.channels.fetch(b.s.world.guilds.Lab.channels.widgets)) as TextChannel;
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await b?.bot.destroy();
  await b?.s.p.stop();
});

describe("a bot's rich messages", () => {
  test("an embed with every field, and a second embed on the same message", async () => {
    await widgets.send({
      content: "report",
      embeds: [
        {
          title: "Weekly report",
          url: "https://example.com/report",
          description: "All **green** this week, see [the board](https://example.com/board).",
          color: 0x23a559,
          author: { name: "Gizmo Labs", url: "https://example.com/labs", icon_url: "https://example.com/labs.png" },
          footer: { text: "Sent by Gizmo", icon_url: "https://example.com/foot.png" },
          timestamp: "2026-03-04T05:06:07.000Z",
          fields: [
            { name: "Builds", value: "12", inline: true },
            { name: "Failures", value: "0", inline: true },
            { name: "Notes", value: "Nothing *unusual*." },
          ],
          image: { url: "https://example.com/chart.png" },
          thumbnail: { url: "https://example.com/logo.png" },
        },
        { title: "Next week", description: "More of the same." },
      ],
    });
    // The bot's pictures, served here: the machine reaches no such host.
    const pictures = {
      prepare: (c: BrowserContext) =>
        c.route("https://example.com/*.png", (r) => r.fulfill({ contentType: "image/png", body: Buffer.from(png(4, 4)) })),
    };
    const alice = await signIn(browser, b.s.base, "alice", pictures);
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await channelEntry(a, "widgets").click();
      const m = message(a, /^Gizmo report/);
      await m.waitFor();
      expect(await m.getByRole("link", { name: "Weekly report" }).getAttribute("href")).toBe("https://example.com/report");
      expect(await m.getByRole("link", { name: "Gizmo Labs" }).getAttribute("href")).toBe("https://example.com/labs");
      expect(await m.getByRole("link", { name: "the board" }).getAttribute("href")).toBe("https://example.com/board");
      expect(await m.getByRole("strong").first().textContent()).toBe("green");
      const terms = await m.getByRole("term").allTextContents();
      const values = await m.getByRole("definition").allTextContents();
      expect(terms).toEqual(["Builds", "Failures", "Notes"]);
      expect(values).toEqual(["12", "0", "Nothing unusual."]);
      expect(await m.getByRole("time").last().getAttribute("datetime")).toBe("2026-03-04T05:06:07.000Z");
      expect(await m.textContent()).toContain("Sent by Gizmo");
      expect(await m.textContent()).toContain("Next week");
      expect(await m.textContent()).toContain("More of the same.");
      await m.getByRole("button", { name: "Load 4 images from example.com" }).click();
      expect(await m.getByRole("img", { name: "Image: Weekly report" }).getAttribute("src")).toBe("https://example.com/chart.png");
      expect(await m.getByRole("img", { name: "Thumbnail" }).getAttribute("src")).toBe("https://example.com/logo.png");
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("message Markdown: emphasis, inline and block code, quotes, spoilers, headers, lists, links", async () => {
    await widgets.send(
      [
        "# Release notes",
        "**bold** *italic* __under__ ~~strike~~ `inline`",
        "```js",
        "const x = 1;",
        "```",
        "> quoted line",
        "||hidden words||",
        "- first item",
        "- second item",
        "1. one",
        "2. two",
        "[the docs](https://example.com/docs)",
      ].join("\n"),
    );
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await channelEntry(a, "widgets").click();
      const m = message(a, /^Gizmo Release notes/);
      await m.waitFor();
      expect(await m.getByRole("heading", { name: "Release notes" }).count()).toBe(1);
      expect(await m.getByRole("strong").textContent()).toBe("bold");
      expect(await m.getByRole("emphasis").textContent()).toBe("italic");
      expect(await m.getByRole("deletion").textContent()).toBe("strike");
      expect(await m.getByRole("code").allTextContents()).toEqual(["inline", "const x = 1;"]);
      expect(await m.getByRole("blockquote").textContent()).toBe("quoted line");
      expect(await m.getByRole("link", { name: "the docs" }).getAttribute("href")).toBe("https://example.com/docs");
      const lists = m.getByRole("list");
      expect(await lists.count()).toBe(2);
      expect(await lists.first().getByRole("listitem").allTextContents()).toEqual(["first item", "second item"]);
      expect(await lists.last().getByRole("listitem").allTextContents()).toEqual(["one", "two"]);
      expect(await lists.last().getAttribute("start")).toBe("1");
      // An item indented under another is a list inside it.
      await widgets.send("nested\n- outer\n  - inner\n- last");
      const nested = message(a, /^Gizmo nested/)
        .getByRole("list")
        .first();
      await nested.waitFor();
      expect(await nested.getByRole("listitem").count()).toBe(3);
      expect(await nested.getByRole("list").getByRole("listitem").allTextContents()).toEqual(["inner"]);
      const spoiler = m.getByRole("button", { name: "Spoiler" });
      await spoiler.click();
      expect(await m.textContent()).toContain("hidden words");
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("mentions of a person, a role and a channel, a custom emoji and a relative time, as names", async () => {
    const lab = b.s.world.guilds.Lab;
    const guild = await b.bot.guilds.fetch(lab.id);
    const party = guild.emojis.cache.find((e) => e.name === "party");
    expect(party).toBeDefined();
    const inTwoHours = Math.floor(Date.now() / 1000) + 2 * 3600 + 60;
    await widgets.send(
      `hey <@${b.s.world.users.bob.id}> and <@&${lab.roles.Helpers}>, see <#${lab.channels.general}> <:party:${party!.id}> <t:${inTwoHours}:R>`,
    );
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await channelEntry(a, "widgets").click();
      const m = message(a, /^Gizmo hey/);
      await m.waitFor();
      const text = await m.textContent();
      expect(text).toContain("hey @Bob and @Helpers, see #general");
      await m.getByRole("img", { name: ":party:" }).waitFor();
      // The last time is the message's own: the first is when it was sent, in its header.
      expect(await m.getByRole("time").last().textContent()).toBe("in 2 hours");
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
