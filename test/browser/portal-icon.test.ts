/**
 * An application's icon in the portal: a developer chooses a picture on the
 * application's page and it becomes the bot's avatar, which discord.js reads as
 * `user.avatar`; a file that is no image is refused with a message beside the control.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { png } from "../support/png";
import { launch, openAs, serve, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({ users: [{ name: "dana", global_name: "Dana" }], applications: [{ name: "Picture Bot", owner: "dana" }] });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("the portal's icon", () => {
  test("choose a picture: the page shows it and it is the bot's avatar; Remove icon clears it; a text file is refused", async () => {
    const app = s.world.applications["Picture Bot"];
    const dana = await openAs(browser, s.base, `/developers/applications/${s.id(app.id)}`, "dana");
    const botMe = async () =>
      (
        (await (await fetch(`${s.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${app.token}` } })).json()) as {
          avatar: string | null;
        }
      ).avatar;
    try {
      const page = dana.page;
      const icon = page.getByRole("region", { name: "Icon" });
      await icon.getByLabel("Choose an icon").setInputFiles({ name: "bot.png", mimeType: "image/png", buffer: Buffer.from(png(16, 16)) });
      await icon.getByRole("status").filter({ hasText: "Icon saved." }).waitFor();
      const img = icon.getByRole("img", { name: "Icon of Picture Bot" });
      await img.waitFor();
      const avatar = await botMe();
      expect(avatar).toMatch(/^[0-9a-f]{32}$/);
      expect(await img.getAttribute("src")).toEndWith(`/${avatar}.png`);
      expect(await img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(16);

      await icon
        .getByLabel("Choose an icon")
        .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
      await icon.getByRole("alert").filter({ hasText: "a PNG, JPEG, GIF, WebP or AVIF picture is needed" }).waitFor();
      expect(await botMe()).toBe(avatar);

      await icon.getByRole("button", { name: "Remove icon" }).click();
      await icon.getByRole("status").filter({ hasText: "Icon removed." }).waitFor();
      expect(await img.count()).toBe(0);
      expect(await botMe()).toBeNull();
    } finally {
      await dana.context.close();
    }
  }, 30_000);
});
