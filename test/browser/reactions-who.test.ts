/**
 * Who reacted: hovering or focusing a reaction says who reacted with it ("Bob, Carol, …
 * and 25 others reacted with 👍") as a tooltip that is the button's accessible
 * description, and "View reactions" in a message's "More" menu opens a "Reactions" dialog
 * with a tab per emoji and the people under each, a page at a time. The dialog keeps the
 * pages' modal rule (focus in, Tab goes round, Escape gives focus back) and passes axe.
 * Taking back one's only reaction of a kind keeps keyboard focus beside it.
 * Found by role and accessible name only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { act, actionsOf, count, launch, message, serve, signIn, until, type Served } from "./support";
import { sweep } from "./axe-support";

let browser: Browser;
let s: Served;
/** 25 more people than the named three: the dialog's list takes two pages. */
const CROWD = Array.from({ length: 25 }, (_, i) => `p${String(i + 1).padStart(2, "0")}`);

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
      ...CROWD.map((name) => ({ name, global_name: `Person ${name.slice(1)}` })),
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob", "carol", ...CROWD], channels: [{ name: "general" }] }],
  });
  const id = (name: string) => s.id(s.world.users[name].id);
  const general = s.id(s.world.guilds.Lab.channels.general);
  s.p.core.transaction(() => {
    const busy = s.p.core.people.send(id("alice"), general, { content: "pizza on friday?" });
    for (const name of ["bob", "carol", ...CROWD]) s.p.core.reactions.add(id(name), busy.id, { name: "👍", id: null });
    s.p.core.reactions.add(id("alice"), busy.id, { name: "🎉", id: null });
    const small = s.p.core.people.send(id("bob"), general, { content: "small talk" });
    s.p.core.reactions.add(id("bob"), small.id, { name: "🔥", id: null });
    s.p.core.reactions.add(id("carol"), small.id, { name: "🔥", id: null });
    s.p.core.people.send(id("carol"), general, { content: "nobody reacts to this" });
    const two = s.p.core.people.send(id("carol"), general, { content: "two of alice's own" });
    s.p.core.reactions.add(id("alice"), two.id, { name: "🍕", id: null });
    s.p.core.reactions.add(id("alice"), two.id, { name: "🌮", id: null });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** The accessible description the browser computes for `el` (its accessibility tree, not the DOM). */
async function description(el: Locator): Promise<string> {
  const page = el.page();
  const cdp = await page.context().newCDPSession(page);
  try {
    await el.evaluate((e) => e.setAttribute("data-probe", "1"));
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "[data-probe]" });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
    return String(nodes[0]?.description?.value ?? "");
  } finally {
    await el.evaluate((e) => e.removeAttribute("data-probe"));
    await cdp.detach();
  }
}

const focused = (el: Locator) => el.evaluate((e) => e === document.activeElement);

describe("who reacted", () => {
  test("hovering or focusing a reaction says who reacted with it; Escape hides it", async () => {
    const bob = await signIn(browser, s.base, "bob");
    const a11y = sweep();
    try {
      const b = bob.page;
      const busy = message(b, /pizza on friday/);
      const thumbs = busy.getByRole("button", { name: "👍 27" });
      await thumbs.hover();
      const tip = busy.getByRole("tooltip");
      await tip.waitFor();
      // Ordered by id (the order they joined): three named, the rest counted.
      await until("the names", async () => /^Bob, Carol, Person 01 and 24 others reacted with 👍$/.test(await tip.innerText()));
      expect(await description(thumbs)).toBe("Bob, Carol, Person 01 and 24 others reacted with 👍");

      const small = message(b, /small talk/);
      const fire = small.getByRole("button", { name: "🔥 2" });
      await fire.focus();
      await until("the two names", async () => (await description(fire)) === "Bob and Carol reacted with 🔥");
      await small.getByRole("tooltip", { name: "Bob and Carol reacted with 🔥" }).waitFor();
      await a11y.check(b, "a reaction's tooltip", { widths: ["desktop"] });
      await b.keyboard.press("Escape");
      await count(small.getByRole("tooltip"), 0);
      await until("focus stays on the reaction", () => focused(fire));

      const party = busy.getByRole("button", { name: "🎉 1" });
      await party.focus();
      await until("one name", async () => (await description(party)) === "Alice reacted with 🎉");
      a11y.clean();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("View reactions: a dialog with a tab per emoji and who reacted, paged; the modal rule and axe hold", async () => {
    const carol = await signIn(browser, s.base, "carol");
    const a11y = sweep();
    try {
      const c = carol.page;
      expect(await actionsOf(message(c, /nobody reacts to this/))).not.toContain("View reactions");
      const busy = message(c, /pizza on friday/);
      await act(busy, "View reactions");
      const dialog = c.getByRole("dialog", { name: "Reactions" });
      await dialog.waitFor();
      await until("focus on the heading", () => focused(dialog.getByRole("heading", { name: "Reactions" })));

      const tabs = dialog.getByRole("tablist", { name: "Emoji" });
      const thumbs = tabs.getByRole("tab", { name: "👍 27" });
      await until("👍 chosen", async () => (await thumbs.getAttribute("aria-selected")) === "true");
      const panel = dialog.getByRole("tabpanel", { name: "👍 27" });
      const people = panel.getByRole("list", { name: "Reacted with 👍" }).getByRole("listitem");
      await count(people, 25);
      expect(await people.first().innerText()).toContain("Bob");
      await a11y.check(c, "the Reactions dialog");

      // The next page; focus goes to its first person, as "Show more" leaves with the last page.
      await panel.getByRole("button", { name: "Show more" }).click();
      await count(people, 27);
      await count(panel.getByRole("button", { name: "Show more" }), 0);
      await until("focus on the first of the new page", () => focused(people.nth(25)));
      expect(await people.last().innerText()).toContain("Person 25");

      // Arrows move between the tabs.
      await thumbs.focus();
      await c.keyboard.press("ArrowRight");
      const party = tabs.getByRole("tab", { name: "🎉 1" });
      await until("🎉 chosen", async () => (await party.getAttribute("aria-selected")) === "true");
      await until("focus on 🎉", () => focused(party));
      const partyPeople = dialog.getByRole("tabpanel", { name: "🎉 1" }).getByRole("listitem");
      await count(partyPeople, 1);
      expect(await partyPeople.innerText()).toContain("Alice");

      // Tab goes round inside: from Close back to the chosen tab.
      await dialog.getByRole("button", { name: "Close" }).focus();
      await c.keyboard.press("Tab");
      await until("Tab wraps to the chosen tab", () => focused(party));
      await c.keyboard.press("Shift+Tab");
      await until("Shift+Tab wraps to Close", () => focused(dialog.getByRole("button", { name: "Close" })));

      // Escape closes it, and focus goes back to the message's "More".
      await c.keyboard.press("Escape");
      await count(dialog, 0);
      await until("focus back on More", () => focused(busy.getByRole("button", { name: "More" })));
      a11y.clean();
    } finally {
      await carol.context.close();
    }
  }, 45_000);

  test("taking back one's only reaction of a kind by keyboard: focus goes to the one beside it, then to the message", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const page = alice.page;
      const msg = message(page, /two of alice's own$/);
      const bar = msg.getByRole("group", { name: "Reactions" });
      const hasFocus = (l: Locator) => l.evaluate((el) => el === document.activeElement).catch(() => false);
      await bar.getByRole("button", { name: /🍕 1/ }).focus();
      await page.keyboard.press("Enter");
      await count(bar.getByRole("button", { name: /🍕/ }), 0);
      await until("focus on the taco", () => hasFocus(bar.getByRole("button", { name: /🌮 1/ })));
      await page.keyboard.press("Enter");
      await count(msg.getByRole("group", { name: "Reactions" }), 0);
      await until("focus on the message", () => hasFocus(msg));
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
