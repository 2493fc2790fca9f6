/**
 * A self-hoster's first minutes: `parley serve` printed a setup link (nobody administers
 * the server yet), and they open it in a browser. Signed out, it creates the
 * administrator's account and lands on Administration; signed in, it makes that person
 * the administrator. Opened again, it says it no longer works and offers to sign in.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, WAIT_MS, type Served } from "./support";
import { sweep } from "./axe-support";

let browser: Browser;
const servers: Served[] = [];

beforeAll(async () => {
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.p.stop();
});

function fresh(): { s: Served; link: string } {
  const s = serve({ users: [{ name: "bob" }], guilds: [{ name: "Lab", owner: "bob", channels: [{ name: "general" }] }] });
  servers.push(s);
  return { s, link: `${s.base}/setup/${s.p.core.setup.token()}` };
}

test("signed out: the link creates the administrator's account, signs it in and opens Administration; then it is spent", async () => {
  const { s, link } = fresh();
  const a11y = sweep();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  try {
    const page = await context.newPage();
    // Whoever did not read the console is told on the sign-in page where to look.
    await page.goto(`${s.base}/`);
    await page.getByText("Nobody administers this server yet.").waitFor();
    await page.goto(link);
    await page.getByRole("heading", { name: "Set up this Parley server" }).waitFor();
    await a11y.check(page, "setup form");
    await page.getByRole("textbox", { name: "Username" }).fill("ana");
    await page.getByRole("textbox", { name: "Display name (optional)" }).fill("Ana");
    // A weak password is refused beside its field, and nothing is made.
    await page.getByRole("textbox", { name: "Password" }).fill("password");
    await page.getByRole("button", { name: "Create administrator" }).click();
    await page.getByRole("textbox", { name: "Password" }).and(page.locator("[aria-invalid=true]")).waitFor();
    await a11y.check(page, "setup form, a field refused");
    expect(s.p.core.users.byUsername("ana")).toBeNull();

    await page.getByRole("textbox", { name: "Password" }).fill("a long password for ana");
    await page.getByRole("button", { name: "Create administrator" }).click();
    await page.getByRole("navigation", { name: "Administration" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin");
    expect(s.p.core.users.byUsername("ana")?.is_admin).toBe(1);

    // The link again, in another browser: spent, and it says where to go instead.
    const other = await browser.newContext();
    try {
      const again = await other.newPage();
      await again.goto(link);
      await again.getByRole("heading", { name: "This setup link does not work" }).waitFor({ timeout: WAIT_MS });
      await again.getByText("the server already has an administrator").waitFor({ timeout: WAIT_MS });
      await a11y.check(again, "setup link spent");
      await again.getByRole("link", { name: "Go to sign in" }).click();
      await again.getByRole("button", { name: "Sign in" }).waitFor({ timeout: WAIT_MS });
      expect(await again.getByText("Nobody administers this server yet.").count()).toBe(0);
    } finally {
      await other.close();
    }
    a11y.clean();
  } finally {
    await context.close();
  }
}, 60_000);

test("signed in: the link makes that person the administrator", async () => {
  const { s, link } = fresh();
  const bob = await signIn(browser, s.base, "bob");
  try {
    await bob.page.goto(link);
    const a11y = sweep();
    await bob.page.getByRole("button", { name: "Make bob the administrator" }).waitFor();
    await a11y.check(bob.page, "setup, signed in");
    a11y.clean();
    await bob.page.getByRole("button", { name: "Make bob the administrator" }).click();
    await bob.page.getByRole("navigation", { name: "Administration" }).waitFor();
    expect(s.p.core.users.byUsername("bob")?.is_admin).toBe(1);
    expect(s.p.core.setup.token()).toBeNull();
    // Spent, and bob is signed in: it offers Parley itself rather than a sign-in.
    await bob.page.goto(link);
    await bob.page.getByRole("heading", { name: "This setup link does not work" }).waitFor();
    await bob.page.getByRole("link", { name: "Open Parley" }).click();
    await bob.page.getByRole("navigation", { name: "Servers" }).waitFor();
  } finally {
    await bob.context.close();
  }
}, 60_000);
