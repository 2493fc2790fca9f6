/**
 * What a bot developer meets first with the test SDK, beyond the README's example: the
 * `test` of parleyHooks with its variants (`skip`, `only`, `each`, `if`...), as a suite
 * written with the framework's own uses them; and a slash command run right after
 * `login`, before the bot has registered it (a bot registers its commands once ready),
 * which waits for the command instead of failing by the race.
 */
import * as bunTest from "bun:test";
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { Client, GatewayIntentBits } from "discord.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HarnessError, parleyHooks, startParley, type RunningParley } from "../../src/testing";
import { BASIC_WORLD } from "../helpers";

let parley: RunningParley;
beforeAll(async () => {
  parley = await startParley();
});
afterAll(() => parley.stop());
const { test } = parleyHooks(bunTest, () => parley, { world: BASIC_WORLD });

/** Register EchoBot's commands through the bot API, as the bot would once ready. */
async function register(names: string[]) {
  const app = parley.world.applications.EchoBot;
  const res = await fetch(`${parley.restBase}/applications/${app.id}/commands`, {
    method: "PUT",
    headers: { Authorization: `Bot ${app.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(names.map((name) => ({ name, description: name }))),
  });
  expect(res.status).toBe(200);
}

describe("parleyHooks' test", () => {
  const ran: string[] = [];
  test.each([1, 2])("each row runs with its value (%p)", (n: number) => {
    ran.push(`each ${n}`);
  });
  test.if(true)("if(true) runs, with the world seeded", async () => {
    ran.push("if");
    expect(parley.world.applications.EchoBot).toBeDefined();
  });
  test("the variants ran what they should", () => {
    expect(ran).toEqual(["each 1", "each 2", "if"]);
  });
});

describe("parleyHooks' test hands skip, todo, if and skipIf to the framework's own", () => {
  // A framework that records what it is asked to register (its skipped tests are never
  // real ones here, so this suite's summary skips nothing).
  bunTest.test("each variant reaches the framework's variant of the same meaning", () => {
    const asked: string[] = [];
    const record = (kind: string) => (name: string) => void asked.push(`${kind} ${name}`);
    const framework = Object.assign(record("test"), {
      skip: record("skip"),
      todo: record("todo"),
      if: (cond: boolean) => (cond ? record("test") : record("skip")),
      skipIf: (cond: boolean) => (cond ? record("skip") : record("test")),
    });
    const hooks = { test: framework, beforeEach() {}, afterEach() {}, afterAll() {} };
    const { test: t } = parleyHooks(hooks as never, () => undefined);
    t.skip("a", () => {});
    t.todo("b");
    t.if(false)("c", () => {});
    t.runIf(false)("d", () => {});
    t.skipIf(true)("e", () => {});
    t.if(true)("f", () => {});
    expect(asked).toEqual(["skip a", "todo b", "skip c", "skip d", "skip e", "test f"]);
  });
});

describe("parleyHooks with node:test", () => {
  bunTest.test("its `after` stands for afterAll, so the coverage report is printed", () => {
    const registered: string[] = [];
    const hook = (name: string) => () => void registered.push(name);
    // node:test's shape: beforeEach, afterEach, after (no afterAll), test.
    parleyHooks({ beforeEach: hook("beforeEach"), afterEach: hook("afterEach"), after: hook("after") }, () => undefined, {
      coverage: true,
    });
    expect(registered).toEqual(["beforeEach", "afterEach", "after"]);
  });
});

describe("a command run before the bot registered it", () => {
  test("slash waits for the command to be registered", async () => {
    const bot = new Client({ intents: [GatewayIntentBits.Guilds] });
    // Registered a while after ready, as a bot that loads its commands first would.
    bot.once("clientReady", () => void new Promise((r) => setTimeout(r, 300)).then(() => register(["ping"])));
    bot.on("interactionCreate", (i) => void (i.isChatInputCommand() && i.reply("pong")));
    await parley.login(bot, "EchoBot");
    const r = await parley.as("alice").slash("general", "ping", undefined, { app: "EchoBot" });
    expect(r.response?.content).toBe("pong");
  });

  test("a command never registered fails saying so, after the wait's timeout", async () => {
    await register(["ping"]);
    const e = await parley
      .as("alice")
      .slash("general", "pnig", undefined, { app: "EchoBot", timeoutMs: 200 })
      .catch((x) => x);
    expect(e).toBeInstanceOf(HarnessError);
    expect(e.status).toBe(400);
    expect(e.message).toContain("the bot has no command 'pnig'");
    // No bot is logged in here: that is the likelier cause, and the message says so.
    expect(e.message).toContain("and the bot is not running (no live gateway session): login() it first");
  });

  test("a misspelt application name is refused naming the world's applications", async () => {
    await expect(parley.transcript("EchoBto")).rejects.toThrow(/^no application 'EchoBto' in the seeded world \(it has .*\bEchoBot\b.*\)$/);
  });

  test("one run with no bot connected is reported as never delivered, not as a slow bot", async () => {
    await register(["ping"]);
    const r = await parley.as("alice").slash("general", "ping", undefined, { app: "EchoBot" });
    expect(r.delivered).toBe(false);
    expect(await parley.strictViolations()).toEqual([
      `/ping in general never reached the bot (interaction ${r.id}): the application had no live gateway session when it ran, ` +
        "and the spec drops those (log the bot in first; after a fault, waitForBot)",
    ]);
    await parley.mark(); // what this test meant to leave behind: strict mode after it has nothing to say
  });
});

describe("a server run as a child process", () => {
  bunTest.test(
    "ends with the test process even when the test never stopped it",
    async () => {
      const script = [
        `import { startParley } from ${JSON.stringify(join(import.meta.dir, "../../src/testing"))};`,
        "const p = await startParley({ inProcess: false });",
        "console.log(p.baseUrl);",
        "process.exit(0); // a file that threw before its afterAll(() => parley.stop())",
      ].join("\n");
      const dir = mkdtempSync(join(tmpdir(), "parley-orphan-"));
      try {
        writeFileSync(join(dir, "forgets.ts"), script);
        const proc = Bun.spawn([process.execPath, join(dir, "forgets.ts")], { stdout: "pipe", stderr: "pipe" });
        const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
        expect(code).toBe(0);
        const url = out.trim();
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        // The server goes with it (a SIGTERM it handles at once); it must not answer for long.
        const answering = async () =>
          fetch(`${url}/healthz`).then(
            () => true,
            () => false,
          );
        let up = await answering();
        for (let i = 0; up && i < 100; i++) {
          await Bun.sleep(50);
          up = await answering();
        }
        expect(up).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
