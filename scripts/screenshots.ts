/**
 * The README's screenshots (docs/screenshots/*.png): the web client's main screens, the
 * developer portal, an install page, administration and server settings, taken in
 * Debian's chromium against an in-memory Parley and the example bot.
 *
 *   bun scripts/screenshots.ts
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Page } from "playwright-core";
import { createParley } from "../src/app";
import { testConfig } from "../src/config";
import { createDemoBot } from "../examples/demo-bot";

const OUT = resolve(import.meta.dir, "../docs/screenshots");
const PASSWORD = "parley-demo";

const p = createParley(testConfig());
const w = p.seed({
  users: [
    { name: "demo", global_name: "Demo", password: PASSWORD, admin: true },
    { name: "sam", global_name: "Sam", password: PASSWORD },
    { name: "kim", global_name: "Kim", password: PASSWORD },
  ],
  guilds: [
    {
      name: "Demo Server",
      owner: "demo",
      members: ["sam", "kim"],
      channels: [{ name: "general", topic: "Say hello" }, { name: "random" }, { name: "dev" }],
    },
  ],
  applications: [
    {
      name: "DemoBot",
      owner: "demo",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Demo Server"],
    },
  ],
});
p.listen();
const base = p.api.urls.base;
const id = (f: string) => p.api.flakes.uuid(f)!;
const general = id(w.guilds["Demo Server"].channels.general);
const random = id(w.guilds["Demo Server"].channels.random);
const say = (user: string, channel: string, content: string) => p.core.people.send(id(w.users[user].id), channel, { content });

const bot = createDemoBot({ api: `${base}/api`, thinkMs: 60_000 });
const ready = new Promise((r) => bot.once("clientReady", r));
await bot.login(w.applications.DemoBot.token);
await ready;
for (let i = 0; i < 100 && !p.core.interactions.available(id(w.users.demo.id), general).length; i++) await Bun.sleep(30);

say("sam", general, "Morning! Has anyone tried the new **dice bot**?");
say("kim", general, "Yes: type `/roll` and pick the sides. It even has buttons.");
say("sam", random, `<@${id(w.users.demo.id)}> lunch at noon?`);

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
const shot = (page: Page, name: string) => page.screenshot({ path: join(OUT, name) });

async function open(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  return context.newPage();
}

const signin = await open(1100, 640);
await signin.goto(`${base}/`);
await signin.getByRole("textbox", { name: "Username" }).fill("demo");
await shot(signin, "sign-in.png");
await signin.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
await signin.getByRole("button", { name: "Sign in" }).click();
const page = signin;
const box = page.getByRole("textbox", { name: "Message #general" });
await box.fill("/");
await page.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/roll" }).waitFor();
await shot(page, "commands.png");
await page.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/roll" }).click();
await page.getByRole("combobox", { name: "sides" }).selectOption("20");
await page.getByRole("spinbutton", { name: "count" }).fill("3");
await page.getByRole("textbox", { name: "label" }).fill("initiative");
await page.getByRole("button", { name: "Send" }).click();
await page.getByText("Roll 1 by DemoBot").waitFor();
await page.getByRole("combobox", { name: "Pick a colour" }).selectOption("blue");
await page.getByText("Only you can see this").waitFor();
const sam = await open(1100, 640);
await sam.goto(`${base}/`);
await sam.getByRole("textbox", { name: "Username" }).fill("sam");
await sam.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
await sam.getByRole("button", { name: "Sign in" }).click();
await sam.getByRole("textbox", { name: "Message #general" }).pressSequentially("Nice roll");
await page.getByText("Sam is typing…").waitFor();
await shot(page, "chat.png");

const phone = await open(390, 780);
await phone.goto(`${base}/`);
await phone.getByRole("textbox", { name: "Username" }).fill("kim");
await phone.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
await phone.getByRole("button", { name: "Sign in" }).click();
await phone.getByText("Roll 1 by DemoBot").waitFor();
await shot(phone, "phone.png");
await phone.getByRole("button", { name: "Menu" }).click();
await shot(phone, "phone-menu.png");

// The developer portal: a new application's token shown once, its page, its install page.
const dev = await open(1100, 760);
await dev.goto(`${base}/developers`);
await dev.getByRole("textbox", { name: "Username" }).fill("demo");
await dev.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
await dev.getByRole("button", { name: "Sign in" }).click();
await dev.getByRole("button", { name: "New application" }).click();
await dev.getByRole("textbox", { name: "Name" }).fill("Weather");
await dev.getByRole("button", { name: "Create" }).click();
await dev.getByRole("textbox", { name: "Token" }).waitFor();
await shot(dev, "portal.png");
await dev.getByRole("link", { name: "Open Weather" }).click();
await dev.getByRole("textbox", { name: "Description" }).fill("Forecasts for your server, on /weather.");
await dev.getByRole("button", { name: "Save", exact: true }).click();
await dev.getByRole("checkbox", { name: "MESSAGE_CONTENT" }).check();
await dev.getByRole("button", { name: "Request approval" }).click();
await dev.getByText("Waiting for an administrator").waitFor();
await dev.screenshot({ path: join(OUT, "portal-app.png"), fullPage: true });
const install = await dev.getByRole("textbox", { name: "Install link" }).inputValue();
await dev.goto(install);
await dev.getByRole("combobox", { name: "Server" }).waitFor();
await shot(dev, "install.png");
await dev.goto(`${base}/admin`);
await dev.getByRole("button", { name: "Approve" }).waitFor();
await shot(dev, "admin.png");
await dev.goto(`${base}/`);
await dev.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
await dev.getByRole("heading", { name: "Server settings" }).waitFor();
await shot(dev, "settings.png");

await browser.close();
await bot.destroy();
await p.stop();
console.log(`screenshots in ${OUT}`);
process.exit(0);
