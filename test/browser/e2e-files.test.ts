/**
 * Files in end-to-end encrypted DMs, between two browsers: Alice attaches a picture and
 * Bob sees it inline, named by its description, while the server's disk holds only
 * ciphertext and its database none of the names; Bob downloads a text file and gets its
 * exact bytes under its name; a file whose stored bytes were altered shows a notice and
 * never renders; a picture's blob: URL is revoked once its message leaves the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { act, channelEntry, count, launch, message, signIn, type Person } from "./support";
import { devicesOf, leaks, serveChild, type ChildServer } from "./e2e-support";
import { png } from "../support/png";

let browser: Browser;
let s: ChildServer;
let alice: Person;
let bob: Person;
let dm: string;

beforeAll(async () => {
  s = await serveChild({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
  alice = await signIn(browser, s.base, "alice");
  bob = await signIn(browser, s.base, "bob");
  await devicesOf(s, "alice", 1);
  await devicesOf(s, "bob", 1);
  const b = await s.as("bob", "GET", "/users/@me");
  dm = (await s.as("alice", "POST", "/users/@me/dms", { recipient_id: b.id })).id;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.stop();
  s?.remove();
});

async function openDm(p: Person, name: string): Promise<void> {
  await p.page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).click();
  await channelEntry(p.page, name).click();
  await p.page.getByRole("textbox", { name: `Message @${name}` }).waitFor();
}

async function leaveDm(p: Person): Promise<void> {
  await p.page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab" }).click();
  await p.page.getByRole("textbox", { name: "Message #general" }).waitFor();
}

/** Attach files through "Attach files", write a text and send; wait until the tray is empty. */
async function sendWithFiles(
  page: Page,
  to: string,
  text: string,
  files: { name: string; mimeType: string; buffer: Buffer; description?: string }[],
) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(files.map(({ name, mimeType, buffer }) => ({ name, mimeType, buffer })));
  for (const f of files) {
    await page.getByRole("button", { name: `Remove ${f.name}` }).waitFor();
    if (f.description) await page.getByRole("textbox", { name: `Description for ${f.name}` }).fill(f.description);
  }
  await count(page.getByRole("progressbar"), 0);
  const box = page.getByRole("textbox", { name: `Message @${to}` });
  await box.fill(text);
  await box.press("Enter");
  for (const f of files) await count(page.getByRole("button", { name: `Remove ${f.name}` }), 0);
}

/** Every stored blob: path and bytes. */
function blobs(): { path: string; name: string; bytes: Buffer }[] {
  const root = join(s.dir, "media", "blobs");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: join(e.parentPath, e.name), name: e.name, bytes: readFileSync(join(e.parentPath, e.name)) }));
}

const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

describe("files in an encrypted DM", () => {
  test("a picture: Bob sees it inline by its description and opens it larger; the server holds only ciphertext", async () => {
    await openDm(alice, "Bob");
    await openDm(bob, "Alice");
    const picture = Buffer.from(png(12, 8, 7));
    const name = `beach-${crypto.randomUUID().slice(0, 8)}.png`;
    const description = `The beach at dawn ${crypto.randomUUID().slice(0, 8)}`;
    await sendWithFiles(alice.page, "Bob", "look", [{ name, mimeType: "image/png", buffer: picture, description }]);

    const seen = message(bob.page, /^Alice look$/);
    await seen.getByRole("img", { name: description }).waitFor();
    await seen.getByRole("button", { name: `Open ${description}` }).click();
    const dialog = bob.page.getByRole("dialog", { name: "Image" });
    await dialog.getByRole("img", { name: description }).waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await count(dialog, 0);
    // Alice's own client shows it too (opened from what it sealed).
    await message(alice.page, /^Alice look$/)
      .getByRole("img", { name: description })
      .waitFor();

    // The server: a file.bin of ciphertext, not the picture, and none of its names.
    const [m] = await s.as("bob", "GET", `/channels/${dm}/messages?limit=1`);
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ filename: "file.bin", content_type: "application/octet-stream", inline: false });
    const stored = blobs();
    expect(stored.map((b) => b.name)).not.toContain(sha256(picture));
    expect(stored.some((b) => b.bytes.equals(picture) || b.bytes.includes(picture.subarray(0, 16)))).toBe(false);
    expect(stored.map((b) => b.bytes.length)).toContain(picture.length + 16);
    expect(leaks(s, [name, description])).toEqual([]);

    // An edit is sealed again with the picture's key and facts: Bob still sees it.
    await act(message(alice.page, /^Alice look$/), "Edit");
    const edit = alice.page.getByRole("textbox", { name: "Edit message" });
    await edit.fill("look again");
    await edit.press("Enter");
    const edited = message(bob.page, /^Alice look again$/);
    await edited.getByRole("img", { name: description }).waitFor();
    expect((await s.as("bob", "GET", `/channels/${dm}/messages?limit=1`))[0].attachments).toHaveLength(1);

    // Leaving the DM lets go of the decrypted picture: its blob: URL is revoked.
    const src = (await edited.getByRole("img", { name: description }).getAttribute("src"))!;
    expect(src).toStartWith("blob:");
    await leaveDm(bob);
    const readable = await bob.page.evaluate(
      (u) =>
        fetch(u).then(
          () => true,
          () => false,
        ),
      src,
    );
    expect(readable).toBe(false);
  }, 30_000);

  test("a pasted text file: Bob's link downloads its exact bytes under its name", async () => {
    await openDm(alice, "Bob");
    await openDm(bob, "Alice");
    const text = `shopping list ${crypto.randomUUID()}\neggs\nmilk\n`;
    // Pasted, as a browser hands the page a copied file.
    const box = alice.page.getByRole("textbox", { name: "Message @Bob" });
    await box.evaluate((el, t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], "notes.txt", { type: "text/plain" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    }, text);
    await alice.page.getByRole("button", { name: "Remove notes.txt" }).waitFor();
    await count(alice.page.getByRole("progressbar", { name: "Uploading notes.txt" }), 0);
    await box.fill("the list");
    await box.press("Enter");
    await count(alice.page.getByRole("button", { name: "Remove notes.txt" }), 0);
    const link = message(bob.page, /^Alice the list$/).getByRole("link", { name: "notes.txt" });
    await link.waitFor();
    const download = bob.page.waitForEvent("download");
    await link.click();
    const d = await download;
    expect(d.suggestedFilename()).toBe("notes.txt");
    expect(readFileSync((await d.path())!).toString()).toBe(text);
    expect(leaks(s, [text.split("\n")[0]!])).toEqual([]);
  }, 30_000);

  test("a file whose stored bytes were altered shows a notice and never renders", async () => {
    await leaveDm(bob);
    await openDm(alice, "Bob");
    const before = new Set(blobs().map((b) => b.name));
    await sendWithFiles(alice.page, "Bob", "altered", [{ name: "tamper.png", mimeType: "image/png", buffer: Buffer.from(png(9, 9, 3)) }]);
    await message(alice.page, /^Alice altered$/)
      .getByRole("img", { name: "tamper.png" })
      .waitFor();
    // Bob has not fetched it yet: its bytes change on the server's disk first.
    const [fresh] = blobs().filter((b) => !before.has(b.name));
    expect(fresh).toBeDefined();
    const bytes = Buffer.from(fresh!.bytes);
    bytes[bytes.length - 20]! ^= 1;
    writeFileSync(fresh!.path, bytes);

    await openDm(bob, "Alice");
    const seen = message(bob.page, /^Alice altered$/);
    await seen.getByText("This file could not be decrypted: tamper.png").waitFor();
    expect(await seen.getByRole("img", { name: "tamper.png" }).count()).toBe(0);
    expect(await seen.getByRole("button", { name: "Open tamper.png" }).count()).toBe(0);
    expect(await seen.getByRole("link", { name: "tamper.png" }).count()).toBe(0);
  }, 30_000);

  test("a picture the harness sends as Bob (its device) opens in Alice's browser", async () => {
    await openDm(alice, "Bob");
    const picture = Buffer.from(png(6, 6, 5));
    await s.harness("POST", "/users/bob/dms", {
      recipient_id: "alice",
      content: "from the harness",
      files: [{ name: "seeded.png", data: picture.toString("base64"), description: "a seeded picture" }],
    });
    await message(alice.page, /^Bob from the harness$/)
      .getByRole("img", { name: "a seeded picture" })
      .waitFor();
  }, 30_000);
});
