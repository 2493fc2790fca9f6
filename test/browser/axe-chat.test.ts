/**
 * The accessibility sweep of the chat (axe-support.ts): a server's channel with a reply,
 * reactions, a bot's embed, image and components; the composer's @ and / suggestions, the
 * emoji picker and a command's form; pinned messages, mentions, search results, the image
 * viewer, the member list and a profile card; a moderator's delete confirmation; the
 * phone's two drawers. Each state is reached by clicking as a person would, and checked
 * at 1280 and 390 px with axe's WCAG 2.1 A and AA rules as they are.
 */
import { afterAll, beforeAll, describe, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { png } from "../support/png";
import { act, channelEntry, launch, message, serve, signIn, type Served } from "./support";
import { PHONE, sweep } from "./axe-support";

let browser: Browser;
let s: Served;

/** A bot API request as Gizmo; a refusal throws. */
async function bot(method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${s.base}/api/v10${path}`, {
    method,
    headers: { Authorization: `Bot ${s.world.applications.Gizmo.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "carol"],
        roles: [{ name: "Helpers", members: ["bob"], color: 0x23a559, hoist: true }],
        channels: [
          { name: "Talk", type: 4 },
          { name: "general", topic: "Anything goes", parent: "Talk" },
          { name: "random", parent: "Talk" },
          { name: "news" },
        ],
      },
    ],
    applications: [{ name: "Gizmo", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  const [alice, bob] = [s.id(s.world.users.alice.id), s.id(s.world.users.bob.id)];
  const general = s.world.guilds.Lab.channels.general;
  s.p.core.transaction(() => {
    const agenda = s.p.core.people.send(bob, s.id(general), { content: "the agenda for friday" });
    s.p.core.pins.pin(alice, s.id(general), agenda.id);
    s.p.core.people.send(alice, s.id(general), { content: `over to you <@${bob}>, **bold** and \`code\``, replyTo: agenda.id });
    const thanks = s.p.core.people.send(bob, s.id(general), { content: "thanks, agreed" });
    s.p.core.reactions.add(alice, thanks.id, { name: "👍", id: null });
    s.p.core.reactions.add(bob, thanks.id, { name: "👍", id: null });
    s.p.core.people.send(bob, s.id(general), {
      content: [
        "# Notes",
        "*one* __two__ ~~three~~ and a [masked link](https://example.com/notes)",
        "```js\nconst x = 1;\n```",
        "> quoted",
        "||a spoiler|| in <#" + s.id(general) + "> for <@&" + s.id(s.world.guilds.Lab.roles.Helpers) + ">",
        "- first\n- second",
        "<t:1767225600:F>",
      ].join("\n"),
    });
  });
  // Unread in #news, with a mention of Alice: a mark and a count beside the channel and the server.
  s.p.core.people.send(bob, s.id(s.world.guilds.Lab.channels.news), { content: `<@${alice}> the news is in` });
  // Alice has muted #random: it shows dimmed among her channels.
  await s.as("alice", "PUT", `/users/@me/notification-settings/${s.id(s.world.guilds.Lab.channels.random)}`, {
    muted_until: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const app = s.world.applications.Gizmo.id;
  await bot("PUT", `/applications/${app}/guilds/${s.world.guilds.Lab.id}/commands`, [
    {
      name: "order",
      description: "Order an ice cream",
      options: [
        { type: 3, name: "flavour", description: "Which", required: true, choices: [{ name: "Mint chip", value: "mint" }] },
        { type: 4, name: "scoops", description: "How many", min_value: 1, max_value: 3 },
        { type: 5, name: "cone", description: "In a cone" },
        { type: 6, name: "for", description: "Who it is for" },
        { type: 3, name: "note", description: "Anything else" },
        { type: 11, name: "photo", description: "A photo of it" },
      ],
    },
    { type: 3, name: "Quote it" },
    { type: 2, name: "High five" },
  ]);
  await bot("POST", `/channels/${general}/messages`, {
    content: "report",
    embeds: [
      {
        title: "Weekly report",
        url: "https://example.com/report",
        description: "All **green** this week.",
        color: 0x23a559,
        author: { name: "Gizmo Labs" },
        footer: { text: "Sent by Gizmo" },
        timestamp: "2026-03-04T05:06:07.000Z",
        fields: [
          { name: "Builds", value: "12", inline: true },
          { name: "Failures", value: "0", inline: true },
        ],
        image: { url: "https://example.com/chart.png" },
      },
    ],
    components: [
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: "Plus", custom_id: "plus" },
          { type: 2, style: 2, label: "Later", custom_id: "later" },
          { type: 2, style: 3, label: "OK", custom_id: "ok" },
          { type: 2, style: 4, label: "No", custom_id: "no" },
          { type: 2, style: 5, label: "Docs", url: "https://example.com/docs" },
        ],
      },
      {
        type: 1,
        components: [
          {
            type: 3,
            custom_id: "pick",
            placeholder: "Pick a colour",
            options: [
              { label: "Red", value: "red" },
              { label: "Blue", value: "blue" },
            ],
          },
        ],
      },
      { type: 1, components: [{ type: 2, style: 2, label: "Gone", custom_id: "gone", disabled: true }] },
    ],
  });
  // Carol's picture: an upload slot, its bytes, then the message.
  const chart = png(64, 48);
  const cid = s.id(general);
  const [slot] = await s.as("carol", "POST", `/channels/${cid}/attachments`, {
    files: [{ filename: "chart.png", size: chart.byteLength }],
  });
  const put = await fetch(`${s.base}/api/client/v1/uploads/${slot.id}`, {
    method: "PUT",
    headers: { Authorization: `Session ${s.world.users.carol.token}`, "Content-Type": "application/octet-stream" },
    body: chart,
  });
  if (!put.ok) throw new Error(`upload: ${put.status}`);
  await s.as("carol", "POST", `/channels/${cid}/messages`, {
    content: "the chart",
    attachments: [{ upload_id: slot.id, description: "a grey chart" }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Closes the open dialog `name` with its Close button. */
async function close(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name, exact: true });
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("accessibility: the chat", () => {
  test("a channel with a reply, reactions, Markdown, a bot's embed and components, a picture; a message's actions", async () => {
    const a11y = sweep();
    // The bot's pictures, served here: the machine reaches no such host.
    const alice = await signIn(browser, s.base, "alice", {
      prepare: (c) => c.route("https://example.com/*.png", (r) => r.fulfill({ contentType: "image/png", body: Buffer.from(png(40, 20)) })),
    });
    try {
      const a = alice.page;
      await message(a, /^Carol the chart/)
        .getByRole("img", { name: "a grey chart" })
        .waitFor();
      await message(a, /^Gizmo report/)
        .getByRole("button", { name: "Plus" })
        .waitFor();
      await a11y.check(a, "a channel with messages");
      await message(a, /^Bob thanks, agreed/).hover();
      await a11y.check(a, "a message's actions shown", { widths: ["desktop"] });
      await message(a, /^Bob thanks, agreed/)
        .getByRole("button", { name: "More" })
        .click();
      await message(a, /^Bob thanks, agreed/)
        .getByRole("menu", { name: "More" })
        .waitFor();
      await a11y.check(a, "a message's More menu", { widths: ["desktop"] });
      await a.keyboard.press("Escape");
      await message(a, /^Bob thanks, agreed/)
        .getByRole("button", { name: "Apps", exact: true })
        .click();
      await message(a, /^Bob thanks, agreed/)
        .getByRole("menu", { name: /^Apps/ })
        .waitFor();
      await a11y.check(a, "a message's Apps menu", { widths: ["desktop"] });
      await a.keyboard.press("Escape");
      await message(a, /^Gizmo report/)
        .getByRole("button", { name: /^Load (\d+ )?images? from/ })
        .click();
      await message(a, /^Gizmo report/)
        .getByRole("img", { name: "Image: Weekly report" })
        .waitFor();
      await message(a, /Notes/).getByRole("button", { name: "Spoiler" }).click();
      await a11y.check(a, "an embed's images loaded, a spoiler shown");
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("the composer: replying, editing, a file attached, the @ and / suggestions, a command's form, the emoji picker", async () => {
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      // The log settles at its end once the picture is in; a person then points at the message
      // (bringing it into view) before its More button.
      await message(a, /^Carol the chart/)
        .getByRole("img", { name: "a grey chart" })
        .waitFor();
      await message(a, /^Bob thanks, agreed/).hover();
      await act(message(a, /^Bob thanks, agreed/), "Reply");
      await a.getByRole("button", { name: "Cancel reply" }).waitFor();
      await a11y.check(a, "replying");
      await a.getByRole("button", { name: "Cancel reply" }).click();
      await message(a, /^Alice over to you/).hover();
      await act(message(a, /^Alice over to you/), "Edit");
      await message(a, /^Alice over to you/)
        .getByRole("textbox")
        .waitFor();
      await a11y.check(a, "editing a message");
      await a.keyboard.press("Escape");
      await message(a, /^Alice over to you/)
        .getByRole("textbox")
        .waitFor({ state: "detached" });
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Attach files" }).click();
      await (await chooser).setFiles({ name: "pic.png", mimeType: "image/png", buffer: Buffer.from(png(8, 6)) });
      await a.getByRole("textbox", { name: "Description for pic.png" }).waitFor();
      await a11y.check(a, "a file attached, not yet sent");
      await a.getByRole("button", { name: "Remove pic.png" }).click();

      const box = a.getByRole("textbox", { name: "Message #general" });
      await box.fill("@b");
      await a.getByRole("listbox", { name: "Mentions" }).getByRole("option").first().waitFor();
      await a11y.check(a, "the @ suggestions");
      await box.fill("/or");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).waitFor();
      await a11y.check(a, "the / suggestions");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).click();
      await a.getByRole("combobox", { name: "flavour" }).waitFor();
      await a11y.check(a, "a command's form");
      const photo = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Choose a file for photo" }).click();
      await (await photo).setFiles({ name: "cone.png", mimeType: "image/png", buffer: Buffer.from(png(3, 3, 1)) });
      await a.getByRole("button", { name: "Remove cone.png" }).waitFor();
      await a11y.check(a, "a command's form with a file chosen");
      await a.getByRole("button", { name: "Send" }).click();
      await a.getByRole("alert").waitFor();
      await a11y.check(a, "a command's form refused");
      await a.keyboard.press("Escape");
      await a.getByRole("combobox", { name: "flavour" }).waitFor({ state: "detached" });

      await a.getByRole("button", { name: "Emoji", exact: true }).click();
      await a.getByRole("dialog", { name: "Emoji" }).waitFor();
      await a11y.check(a, "the emoji picker");
      await close(a, "Emoji");
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("pinned messages, mentions, search results, the image viewer, the member list, a profile card, a delete confirmation", async () => {
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("button", { name: "Pinned messages" }).click();
      await a.getByRole("dialog", { name: "Pinned messages" }).getByRole("button", { name: "Jump" }).waitFor();
      await a11y.check(a, "pinned messages");
      await close(a, "Pinned messages");
      await a.getByRole("button", { name: "Mentions", exact: true }).click();
      await a.getByRole("dialog", { name: "Mentions" }).waitFor();
      await a11y.check(a, "mentions");
      await close(a, "Mentions");
      await a.getByRole("button", { name: "Notification settings" }).click();
      await a.getByRole("dialog", { name: "Notification settings" }).waitFor();
      await a11y.check(a, "notification settings");
      await close(a, "Notification settings");
      await a.getByRole("button", { name: "Change nickname" }).click();
      const nick = a.getByRole("dialog", { name: /^Your nickname in / });
      await nick.waitFor();
      await a11y.check(a, "change nickname");
      await nick.getByRole("button", { name: "Cancel" }).click();
      await nick.waitFor({ state: "detached" });

      const search = a.getByRole("searchbox", { name: "Search" });
      await search.fill("agenda");
      await search.press("Enter");
      await a.getByRole("region", { name: "Search results" }).getByRole("button", { name: "Jump" }).first().waitFor();
      await a11y.check(a, "search results");
      await a.getByRole("region", { name: "Search results" }).getByRole("button", { name: "Close search" }).click();

      await message(a, /^Carol the chart/)
        .getByRole("button", { name: "Open a grey chart" })
        .click();
      await a.getByRole("dialog", { name: "Image" }).getByRole("img", { name: "a grey chart" }).waitFor();
      await a11y.check(a, "the image viewer");
      await close(a, "Image");

      const members = a.getByRole("complementary", { name: "Members" });
      await members.getByRole("button", { name: "Bob", exact: true }).click();
      await a.getByRole("dialog", { name: "Bob" }).waitFor();
      await a11y.check(a, "the member list and a profile card");
      await close(a, "Bob");

      await act(message(a, /^Carol the chart/), "Delete");
      await a.getByRole("dialog", { name: "Delete message?" }).waitFor();
      await a11y.check(a, "delete message confirmation");
      await a.getByRole("dialog", { name: "Delete message?" }).getByRole("button", { name: "Cancel" }).click();
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("a phone: the channels drawer and the members drawer", async () => {
    const a11y = sweep();
    const bob = await signIn(browser, s.base, "bob", { viewport: PHONE, touch: true });
    try {
      const b = bob.page;
      await a11y.check(b, "phone: a channel", { widths: ["phone"] });
      await b.getByRole("button", { name: "Menu" }).click();
      await channelEntry(b, "random").waitFor();
      await a11y.check(b, "phone: the channels drawer", { widths: ["phone"] });
      await b.keyboard.press("Escape");
      await b.getByRole("button", { name: "Members" }).click();
      await b.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Alice", exact: true }).waitFor();
      await a11y.check(b, "phone: the members drawer", { widths: ["phone"] });
    } finally {
      await bob.context.close();
    }
    a11y.clean();
  }, 60_000);
});
