/**
 * Drag and drop in Server settings, beside the "Move ... up/down" buttons: a channel's row
 * dragged within its category or into another (onto a channel's row, before or after it
 * by the half it is dropped on, or onto a category's heading), a role's row dragged among
 * the roles below one's own. Each drop is one request; a drop the server refuses shows its
 * reason and the order goes back; a role dropped above one's own highest role is refused
 * with the buttons' reason and asks nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob"],
        // Listed lowest first: Low 1, Mid 2, Keepers 3, Top 4.
        roles: [
          { name: "Low" },
          { name: "Mid" },
          { name: "Keepers", permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS"], members: ["bob"] },
          { name: "Top" },
        ],
        channels: [
          { name: "general" },
          { name: "random" },
          { name: "Staff", type: 4 },
          { name: "plans", parent: "Staff" },
          // Keepers may not put channels here.
          { name: "Vault", type: 4, overwrites: [{ role: "Keepers", deny: ["MANAGE_CHANNELS"] }] },
          { name: "gold", parent: "Vault", overwrites: [{ role: "Keepers", deny: ["MANAGE_CHANNELS"] }] },
        ],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const lab = () => s.id(s.world.guilds.Lab.id);
const channel = (name: string) => s.p.core.guilds.channels(lab()).find((c) => c.name === name)!;
const rolesTopDown = () =>
  s.p.core.guilds
    .roles(lab())
    .filter((r) => r.name !== "@everyone")
    .sort((a, b) => b.position - a.position)
    .map((r) => r.name);

async function openSection(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

/** The names a list shows, in order, read off its "Move <name> down" buttons. */
async function names(list: Locator): Promise<string[]> {
  return (await list.getByRole("button", { name: /^Move .* down$/ }).allTextContents()).map((t) => t.replace(/^Move (.*) down$/, "$1"));
}

/** The row of a list holding the named control. */
const row = (list: Locator, control: string) =>
  list.getByRole("listitem").filter({ has: list.page().getByRole("button", { name: control }) });

/** Drags `from` by its left edge (its grip) onto `to`, in the upper or lower part of it. */
async function drag(from: Locator, to: Locator, half: "upper" | "lower"): Promise<void> {
  const box = await to.boundingBox();
  if (!box) throw new Error(`${to} is not shown`);
  await from.dragTo(to, { sourcePosition: { x: 4, y: 8 }, targetPosition: { x: 8, y: half === "upper" ? 3 : box.height - 3 } });
}

/** Counts the requests the page sends that match. */
function requests(page: Page, method: string, path: RegExp): { n: number } {
  const seen = { n: 0 };
  page.on("request", (r) => {
    if (r.method() === method && path.test(new URL(r.url()).pathname)) seen.n++;
  });
  return seen;
}

describe("drag and drop", () => {
  test("channels: within a list, onto another category's channel and heading; one request a drop; a refused drop goes back", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const sent = requests(b, "PATCH", /\/guilds\/[^/]+\/channels$/);
      await openSection(b, "Channels");
      const order = b.getByRole("region", { name: "Order and categories" });
      const top = order.getByRole("list", { name: "Channels outside categories" });
      const staff = order.getByRole("list", { name: "Category Staff" });
      const vault = order.getByRole("list", { name: "Category Vault" });
      expect(await names(top)).toEqual(["general", "random"]);

      await drag(row(top, "Move random up"), row(top, "Move general up"), "upper");
      await order.getByRole("status").filter({ hasText: "#random moved." }).waitFor();
      expect(await names(top)).toEqual(["random", "general"]);
      expect(channel("random").position).toBeLessThan(channel("general").position);
      expect(sent.n).toBe(1);

      // Into another category, after the channel it is dropped on; no permissions to ask about (none on either).
      await drag(row(top, "Move general up"), row(staff, "Move plans up"), "lower");
      await until("general in Staff", async () => (await names(staff)).join() === "plans,general");
      // The page shows a move at once; the server has it once its answer is in.
      await until("the server to put general in Staff", async () => channel("general").parent_id === channel("Staff").id);
      expect(await names(top)).toEqual(["random"]);
      expect(sent.n).toBe(2);

      // Onto a category's heading: first in it.
      await drag(row(top, "Move random up"), order.getByRole("button", { name: "Rename Staff" }), "lower");
      await until("random first in Staff", async () => (await names(staff)).join() === "random,plans,general");
      await until("the server to put random in Staff", async () => channel("random").parent_id === channel("Staff").id);
      expect(sent.n).toBe(3);

      // Refused by the server (Keepers may not manage channels in Vault): its reason shows, and the order goes back.
      await drag(row(staff, "Move plans up"), row(vault, "Move gold up"), "lower");
      const ask = b.getByRole("dialog", { name: "Move #plans into Vault?" });
      await ask.getByRole("button", { name: "Keep its permissions" }).click();
      await order.getByText("Missing Permissions").waitFor();
      expect(await names(staff)).toEqual(["random", "plans", "general"]);
      expect(await names(vault)).toEqual(["gold"]);
      expect(channel("plans").parent_id).toBe(channel("Staff").id);
      expect(sent.n).toBe(4);

      // The buttons still move what a drag moves.
      await staff.getByRole("button", { name: "Move general up" }).click();
      await until("general above plans", async () => (await names(staff)).join() === "random,general,plans");
    } finally {
      await bob.context.close();
    }
  }, 60_000);

  test("roles: dragged below one's own highest role in one request; above it, refused with the buttons' reason and nothing asked", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const sent = requests(b, "PATCH", /\/guilds\/[^/]+\/roles$/);
      await openSection(b, "Roles");
      const list = b.getByRole("region", { name: "Roles here" }).getByRole("list", { name: "Roles" });
      const shown = async () => (await list.getByRole("button", { name: /^Edit / }).allTextContents()).map((t) => t.slice(5));
      expect(await shown()).toEqual(["Top", "Keepers", "Mid", "Low", "@everyone"]);

      await drag(row(list, "Edit Low"), row(list, "Edit Mid"), "upper");
      await b.getByRole("region", { name: "Roles here" }).getByRole("status").filter({ hasText: "Low moved." }).waitFor();
      expect(await shown()).toEqual(["Top", "Keepers", "Low", "Mid", "@everyone"]);
      expect(rolesTopDown()).toEqual(["Top", "Keepers", "Low", "Mid"]);
      expect(sent.n).toBe(1);

      // Above Keepers, bob's highest role: refused here, asked of nobody.
      await drag(row(list, "Edit Mid"), row(list, "Edit Keepers"), "upper");
      await b.getByText("Beyond your own rank: only roles below your highest role move.").waitFor();
      expect(await shown()).toEqual(["Top", "Keepers", "Low", "Mid", "@everyone"]);
      expect(rolesTopDown()).toEqual(["Top", "Keepers", "Low", "Mid"]);
      expect(sent.n).toBe(1);

      // Onto @everyone: the lowest place.
      await drag(row(list, "Edit Low"), row(list, "Edit @everyone"), "upper");
      await until("Low lowest", async () => (await shown()).join() === "Top,Keepers,Mid,Low,@everyone");
      await until("the server to put Low lowest", async () => rolesTopDown().join() === "Top,Keepers,Mid,Low");
      expect(sent.n).toBe(2);
    } finally {
      await bob.context.close();
    }
  }, 60_000);
});
