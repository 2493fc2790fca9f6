/**
 * The server's pictures by keyboard: the emoji image picked is named before Upload emoji,
 * and after the upload (the button disabled again until the next name and image) focus is
 * on the emoji's name, ready for another; Remove icon, which leaves with the icon, puts
 * focus on choosing another. Never on the page's body.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { png } from "../support/png";
import { launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const focused = (l: Locator) => until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));

test("Upload emoji and Remove icon pressed by keyboard keep focus in the settings", async () => {
  const { context, page: a } = await signIn(browser, s.base, "alice");
  try {
    const nav = a.getByRole("navigation", { name: "Server settings" });
    await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();

    await nav.getByRole("button", { name: "Emoji", exact: true }).click();
    await a.getByRole("textbox", { name: "Emoji name" }).fill("wave");
    const image = a.getByLabel("Emoji image");
    await image.setInputFiles({ name: "wave.png", mimeType: "image/png", buffer: Buffer.from(png(6, 6, 6)) });
    expect(await image.getAttribute("aria-describedby").then((id) => a.locator(`#${id}`).textContent())).toBe("Chosen: wave.png");
    await a.getByRole("button", { name: "Upload emoji" }).focus();
    await a.keyboard.press("Enter");
    await a.getByRole("button", { name: "Delete wave" }).waitFor();
    await focused(a.getByRole("textbox", { name: "Emoji name" }));

    await nav.getByRole("button", { name: "Overview", exact: true }).click();
    await a
      .getByLabel("Choose a server icon")
      .setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: Buffer.from(png(16, 16, 3)) });
    await a.getByRole("img", { name: "Icon of Lab" }).waitFor();
    await a.getByRole("button", { name: "Remove icon" }).focus();
    await a.keyboard.press("Enter");
    await a.getByRole("img", { name: "Icon of Lab" }).waitFor({ state: "detached" });
    await focused(a.getByLabel("Choose a server icon"));
  } finally {
    await context.close();
  }
}, 30_000);
