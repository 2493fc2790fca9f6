/**
 * Categories, made and kept in Server settings → Channels ("Order and categories"), and
 * shown where people read: the "Channels" rail lists a category's channels under its
 * name, in the order set, and follows every change live in another member's browser. A
 * category is renamed, moved and deleted there too (its channels move to the top level).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { count, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["carol"], channels: [{ name: "general" }, { name: "random" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const rail = (page: Page) => page.getByRole("navigation", { name: "Channels" });
/** The rail's categories, by their headings, in the order shown. */
const railCategories = (page: Page) => rail(page).getByRole("heading", { level: 3 }).allTextContents();

describe("categories", () => {
  test("made, filled, renamed, moved and deleted in settings; the rail of another member follows", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const carol = await signIn(browser, s.base, "carol");
    try {
      const a = alice.page;
      const c = carol.page;
      await rail(a).getByRole("button", { name: "Server settings" }).click();
      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Channels", exact: true }).click();
      const order = a.getByRole("region", { name: "Order and categories" });

      for (const name of ["Staff Area", "Archive"]) {
        await order.getByRole("textbox", { name: "Category name" }).fill(name);
        await order.getByRole("button", { name: "Create category" }).click();
        await order
          .getByRole("status")
          .filter({ hasText: `Category ${name} created.` })
          .waitFor();
      }
      await order.getByRole("combobox", { name: "Category for random" }).selectOption({ label: "Staff Area" });
      await rail(c)
        .getByRole("list", { name: "Staff Area" })
        .getByRole("button", { name: /^random\b/ })
        .waitFor();
      expect(
        await rail(c)
          .getByRole("list", { name: "Staff Area" })
          .getByRole("button", { name: /^general\b/ })
          .count(),
      ).toBe(0);

      await order.getByRole("textbox", { name: "Name of Staff Area" }).fill("Team");
      await order.getByRole("button", { name: "Rename Staff Area" }).click();
      await rail(c)
        .getByRole("list", { name: "Team" })
        .getByRole("button", { name: /^random\b/ })
        .waitFor();
      expect(await railCategories(c)).toEqual(["Team", "Archive"]);

      await order.getByRole("button", { name: "Move category Archive up" }).click();
      await order.getByRole("status").filter({ hasText: "Category Archive moved up." }).waitFor();
      expect(await order.getByRole("button", { name: "Move category Archive up" }).isDisabled()).toBe(true);
      await count(rail(c).getByRole("list", { name: "Archive" }), 1);
      await until("Archive above Team in the rail", async () => (await railCategories(c)).join() === "Archive,Team");

      await order.getByRole("button", { name: "Delete category Team" }).click();
      const confirm = a.getByRole("dialog", { name: "Delete category Team?" });
      await confirm.getByText("Its channels move to the top level.").waitFor();
      await confirm.getByRole("button", { name: "Delete category" }).click();
      await count(rail(c).getByRole("list", { name: "Team" }), 0);
      await rail(c)
        .getByRole("button", { name: /^random\b/ })
        .waitFor();
      const channels = s.p.core.guilds.channels(s.id(s.world.guilds.Lab.id));
      expect(channels.find((x) => x.name === "random")!.parent_id).toBeNull();
    } finally {
      await alice.context.close();
      await carol.context.close();
    }
  }, 40_000);
});
