/**
 * Files in the web client (issue 31): "Attach files", paste and drop, the tray with
 * "Remove <filename>" and "Uploading <filename>", pictures inline named by their
 * description, other files as links that download, avatars in the member list, and a
 * server's emoji in a message and a reaction. Found by role and accessible name only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { act, count, launch, message, serve, signIn, until, WAIT_MS, type Served } from "./support";
import { png } from "../support/png";
import { rowCounts } from "../helpers";

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
        channels: [{ name: "general" }, { name: "text-only", overwrites: [{ role: "@everyone", deny: ["ATTACH_FILES"] }] }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Hand the page files as a paste (on the textbox) or a drop (on the composer), as a browser does. */
async function transfer(page: Page, kind: "paste" | "drop", files: { name: string; type: string; text: string }[], channel = "general") {
  const box = page.getByRole("textbox", { name: `Message #${channel}` });
  await box.evaluate(
    (el, { kind, files }) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([f.text], f.name, { type: f.type }));
      const target = kind === "paste" ? el : el.closest(".composer")!;
      const event =
        kind === "paste"
          ? new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true })
          : new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { kind, files },
  );
}

async function waitUntil(check: () => boolean) {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

describe("files in the web client", () => {
  test("attach, describe and send a picture; the other person sees it inline and opens it", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Attach files" }).click();
      await (await chooser).setFiles({ name: "pic.png", mimeType: "image/png", buffer: Buffer.from(png(8, 6)) });
      await a.getByRole("button", { name: "Remove pic.png" }).waitFor();
      await a.getByRole("textbox", { name: "Description for pic.png" }).fill("a grey box");
      await count(a.getByRole("progressbar", { name: "Uploading pic.png" }), 0);
      await a.getByRole("textbox", { name: "Message #general" }).fill("look");
      await a.keyboard.press("Enter");
      await count(a.getByRole("button", { name: "Remove pic.png" }), 0);

      const b = bob.page;
      const img = message(b, /^Alice look$/).getByRole("img", { name: "a grey box" });
      await img.waitFor();
      const open = message(b, /^Alice look$/).getByRole("button", { name: "Open a grey box" });
      await open.click();
      const dialog = b.getByRole("dialog", { name: "Image" });
      await dialog.getByRole("img", { name: "a grey box" }).waitFor();
      // Modal: the page behind is out of reach; Escape closes it and focus goes back to what opened it.
      expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
      await b.keyboard.press("Escape");
      await count(dialog, 0);
      await until("focus back on the picture", () => open.evaluate((el) => el === document.activeElement));
      await open.click();
      await dialog.getByRole("button", { name: "Close" }).click();
      await count(dialog, 0);
      await until("focus back again", () => open.evaluate((el) => el === document.activeElement));
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("paste and drop attach files; an HTML file is a link that downloads and never renders", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await transfer(a, "paste", [{ name: "notes.txt", type: "text/plain", text: "pasted words" }]);
      await transfer(a, "drop", [{ name: "page.html", type: "text/html", text: "<!doctype html><script>document.title='ran'</script>" }]);
      await a.getByRole("button", { name: "Remove notes.txt" }).waitFor();
      await a.getByRole("button", { name: "Remove page.html" }).waitFor();
      await count(a.getByRole("progressbar"), 0);
      await a.getByRole("button", { name: "Send" }).click();
      const link = a.getByRole("link", { name: "page.html" });
      await link.waitFor();
      await a.getByRole("link", { name: "notes.txt" }).waitFor();
      const res = await a.request.get(new URL((await link.getAttribute("href"))!, s.base).href);
      expect(res.headers()["content-disposition"]).toStartWith("attachment");
      expect(res.headers()["content-type"]).not.toContain("html");
      expect(res.headers()["x-content-type-options"]).toBe("nosniff");
      const download = a.waitForEvent("download");
      await link.click();
      expect((await download).suggestedFilename()).toBe("page.html");
      expect(alice.context.pages()).toHaveLength(1);
      expect(await a.title()).not.toBe("ran");
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("an upload shows its progress and Remove cancels it, giving its slot back", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      // Hold the bytes' request, so the upload is seen under way.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await a.route("**/api/client/v1/uploads/*", async (route) => {
        if (route.request().method() !== "PUT") return route.continue();
        await held;
        await route.abort().catch(() => undefined);
      });
      await transfer(a, "paste", [{ name: "big.bin", type: "application/octet-stream", text: "x".repeat(200_000) }]);
      await a.getByRole("progressbar", { name: "Uploading big.bin" }).waitFor();
      expect(await a.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
      await a.getByRole("button", { name: "Remove big.bin" }).click();
      release();
      await count(a.getByRole("progressbar", { name: "Uploading big.bin" }), 0);
      await waitUntil(() => rowCounts(s.p, ["uploads"]).uploads === 0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("avatars in the member list; a server's emoji in a message and a reaction", async () => {
    const bobId = s.id(s.world.users.bob.id);
    const aliceId = s.id(s.world.users.alice.id);
    const lab = s.id(s.world.guilds.Lab.id);
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.p.core.media.setAvatar(bobId, { bytes: png(16, 16, 3) });
    const party = await s.p.core.emojis.create(aliceId, lab, { name: "party", image: { bytes: png(8, 8, 9) } });
    const m = s.p.core.people.send(bobId, general, { content: `time to <:party:${party.id}>` });
    s.p.core.reactions.add(aliceId, m.id, { name: "party", id: party.id });

    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("complementary", { name: "Members" }).getByRole("img", { name: "Avatar of Bob" }).waitFor();
      const msg = message(a, /^Bob time to/);
      await msg.getByRole("img", { name: ":party:" }).first().waitFor();
      await msg.getByRole("group", { name: "Reactions" }).getByRole("img", { name: ":party:" }).waitFor();
      const loaded = await msg
        .getByRole("img", { name: ":party:" })
        .first()
        .evaluate((el) => (el as HTMLImageElement).naturalWidth);
      expect(loaded).toBe(8);
      // Bob's message gets a reaction with the server's emoji from the picker.
      const other = s.p.core.people.send(bobId, general, { content: "pick one" });
      const target = message(a, /^Bob pick one$/);
      await act(target, "Add reaction");
      await target.getByRole("button", { name: "React with :party:" }).click();
      await target.getByRole("group", { name: "Reactions" }).getByRole("button", { name: ":party: 1" }).waitFor();
      expect(s.p.core.reactions.usersSeenBy(aliceId, other.id, { name: "party", id: party.id }, { limit: 10 }).map((u) => u.id)).toEqual([
        aliceId,
      ]);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("settings: a server icon, an emoji and one's avatar, each uploaded and shown", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const upload = async (label: string, name: string, bytes: Uint8Array) => {
        const chooser = a.waitForEvent("filechooser");
        // A file input is a button named by its label (the Avatar section is a region of the same name).
        await a.getByRole("button", { name: label, exact: true }).click();
        await (await chooser).setFiles({ name, mimeType: "image/png", buffer: Buffer.from(bytes) });
      };
      // The server rail shows a server's initials until it has an icon, then the icon named by the server.
      const rail = a.getByRole("navigation", { name: "Servers" });
      await rail.getByRole("button", { name: "Lab" }).waitFor();
      expect(await rail.getByRole("img").count()).toBe(0);
      await a.getByRole("button", { name: "Server settings" }).click();
      await upload("Choose a server icon", "icon.png", png(12, 12, 4));
      await a.getByRole("img", { name: "Icon of Lab" }).waitFor();
      await rail.getByRole("button", { name: "Lab" }).getByRole("img", { name: "Lab" }).waitFor();

      // Emoji are a section of their own in Server settings.
      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Emoji" }).click();
      await a.getByRole("textbox", { name: "Emoji name" }).fill("wave");
      await upload("Emoji image", "wave.png", png(6, 6, 6));
      await a.getByRole("button", { name: "Upload emoji" }).click();
      await a.getByRole("button", { name: "Delete wave" }).waitFor();
      await a.getByRole("img", { name: ":wave:" }).waitFor();

      await a.getByRole("button", { name: "Close settings" }).click();
      await a.getByRole("button", { name: "User settings" }).click();
      const dialog = a.getByRole("dialog", { name: "User settings" });
      await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Profile" }).click();
      await upload("Avatar", "me.png", png(10, 10, 2));
      await dialog.getByRole("img", { name: "Avatar of Alice" }).waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await a.getByRole("complementary", { name: "Members" }).getByRole("img", { name: "Avatar of Alice" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("where Attach Files is denied, no Attach files; a pasted or dropped file is not uploaded and the page says why", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const asked: string[] = [];
      // An upload's requests only: a picture of #general shown meanwhile is read from /attachments too.
      b.on("request", (r) => r.method() !== "GET" && /\/attachments|\/uploads\//.test(r.url()) && asked.push(`${r.method()} ${r.url()}`));
      await b
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^text-only\b/ })
        .click();
      await b.getByRole("textbox", { name: "Message #text-only" }).waitFor();
      expect(await b.getByRole("button", { name: "Attach files" }).count()).toBe(0);
      await transfer(b, "paste", [{ name: "notes.txt", type: "text/plain", text: "pasted words" }], "text-only");
      const why = b.getByRole("status").filter({ hasText: "You do not have permission to attach files in #text-only" });
      await why.waitFor();
      await transfer(b, "drop", [{ name: "dropped.txt", type: "text/plain", text: "dropped words" }], "text-only");
      expect(await b.getByRole("list", { name: "Files to send" }).count()).toBe(0);
      expect(asked).toEqual([]);
      // Words are still welcome there, and files in #general.
      await b.getByRole("textbox", { name: "Message #text-only" }).fill("just words");
      await b.keyboard.press("Enter");
      await message(b, /just words/).waitFor();
      await b
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^general\b/ })
        .click();
      await b.getByRole("button", { name: "Attach files" }).waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a new avatar shows live on what its owner wrote before, as in the member list", async () => {
    const bobId = s.id(s.world.users.bob.id);
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.p.core.media.setAvatar(bobId, { bytes: png(16, 16, 5) });
    s.p.core.people.send(bobId, general, { content: "written before the new picture" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const msg = message(a, /written before the new picture$/);
      await msg.waitFor();
      // Beside the name already read, the picture is decoration: an image with no name.
      const picture = msg.getByRole("presentation").first();
      const src = async () => ((await picture.count()) ? await picture.getAttribute("src") : null);
      await picture.waitFor();
      const before = await src();
      await s.p.core.media.setAvatar(bobId, { bytes: png(14, 14, 7) });
      const hash = s.p.core.users.get(bobId)?.avatar;
      expect(hash).toBeTruthy();
      expect(before).not.toContain(hash!);
      await a.getByRole("complementary", { name: "Members" }).getByRole("img", { name: "Avatar of Bob" }).waitFor();
      await until("the message shows the new picture", async () => (await src())?.includes(hash!) ?? false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
