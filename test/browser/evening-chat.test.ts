/**
 * An evening of chat, as the people in it read it: a reply's quote of the original says
 * who it mentions by name, without Markdown's marks and without a spoiler's words, and so
 * does a channel's topic in its heading; a
 * server with an icon is named in the rail with its marks in one piece ("Club, 1 mention").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { act, channelEntry, launch, message, serve, signIn, type Served } from "./support";
import { png } from "../support/png";

let s: Served;
let browser: Browser;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "olive", global_name: "Olive" },
      { name: "mo", global_name: "Mo" },
      { name: "mem", global_name: "Mem" },
    ],
    guilds: [
      {
        name: "Club",
        owner: "olive",
        members: ["mo", "mem"],
        roles: [{ name: "Night Owls", permissions: [], members: ["mem"], mentionable: true }],
        channels: [{ name: "general" }, { name: "other" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const chan = (name: string) => s.id(s.world.guilds.Club.channels[name]);

describe("reading the chat", () => {
  test("a reply's quote names who the original mentions and shows no Markdown marks nor a spoiler's words", async () => {
    const mem = s.id(s.world.users.mem.id);
    const owls = s.id(s.world.guilds.Club.roles["Night Owls"]);
    await s.as("mo", "POST", `/channels/${chan("general")}/messages`, {
      content: `hey <@${mem}> and <@&${owls}>, check **this** ~~out~~ ||the ending|| in <#${chan("other")}>`,
    });
    const { context, page } = await signIn(browser, s.base, "mem");
    try {
      await channelEntry(page, "general").click();
      await act(message(page, /^Mo hey/), "Reply");
      await page.keyboard.type("On it");
      await page.keyboard.press("Enter");
      const reply = message(page, /^Mem On it/);
      const quote = reply.getByRole("button", { name: /^Replying to Mo:/ });
      expect(await quote.textContent()).toBe("Replying to Mo: hey @Mem and @Night Owls, check this out [spoiler] in #other");
    } finally {
      await context.close();
    }
  }, 20_000);

  test("a channel's topic in its heading reads as words: no Markdown marks, mentions by name", async () => {
    const owls = s.id(s.world.guilds.Club.roles["Night Owls"]);
    await s.as("olive", "PATCH", `/channels/${chan("other")}`, {
      topic: `Talk about **anything**, ask <@&${owls}> or see <#${chan("general")}>`,
    });
    const { context, page } = await signIn(browser, s.base, "mo");
    try {
      await channelEntry(page, "other").click();
      await page.getByRole("heading", { name: "#other — Talk about anything, ask @Night Owls or see #general", exact: true }).waitFor();
    } finally {
      await context.close();
    }
  }, 20_000);

  test("a server with an icon is named in the rail with its marks in one piece", async () => {
    const guild = s.id(s.world.guilds.Club.id);
    const bytes = png(16, 16, 3);
    const slot = await s.as("olive", "POST", "/uploads", {
      purpose: "icon",
      filename: "icon.png",
      size: bytes.byteLength,
      guild_id: guild,
    });
    const put = await fetch(`${s.base}${slot.upload_url}`, {
      method: "PUT",
      headers: { Authorization: `Session ${s.world.users.olive.token}` },
      body: bytes,
    });
    expect(put.status).toBe(200);
    await s.as("olive", "PUT", `/guilds/${guild}/icon`, { upload_id: slot.id });

    const { context, page } = await signIn(browser, s.base, "mem");
    try {
      await page.getByRole("button", { name: "Direct messages" }).click();
      const rail = page.getByRole("navigation", { name: "Servers" });
      await rail.getByRole("button", { name: "Club", exact: true }).getByRole("img", { name: "Club" }).waitFor();
      await s.as("mo", "POST", `/channels/${chan("other")}/messages`, { content: `ping <@${s.id(s.world.users.mem.id)}>` });
      await rail.getByRole("button", { name: "Club, 1 mention", exact: true }).waitFor();
    } finally {
      await context.close();
    }
  }, 20_000);
});
