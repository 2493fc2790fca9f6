/**
 * test/scenarios.ts itself: placeholders resolve per API, every stated expectation is
 * checked (a wrong one fails the row), and a row cannot leave out what it must say.
 */
import { describe, expect, test } from "bun:test";
import { runScenario, scenarios, type Scenario } from "../scenarios";

const bobSays: Scenario = {
  name: "bob posts in #general",
  actor: "bob",
  method: "POST",
  path: "/channels/{channel:general}/messages",
  body: { content: "hi from {user:bob}" },
  status: 200,
  events: { "message.created": 1, "*": 0 },
};

describe("the scenario runner", () => {
  test("ids are snowflakes on the bot API and internal ids on the people's API", async () => {
    const bot = await runScenario({
      name: "EchoBot reads #general",
      actor: "EchoBot",
      method: "GET",
      path: "/channels/{channel:Lab/general}",
      status: 200,
      after: ({ res, w }) => expect(res.body.id).toBe(w.guilds.Lab.channels.general),
    });
    expect(bot.body.guild_id).toMatch(/^\d+$/);
    const person = await runScenario({
      ...bobSays,
      after: ({ res, p, w }) => expect(res.body.channel_id).toBe(p.api.flakes.uuid(w.guilds.Lab.channels.general)),
    });
    expect(person.body.content).toMatch(/^hi from [0-9a-f-]{36}$/);
    const forced = await runScenario({ ...bobSays, body: { content: "{snowflake:user:bob}" } });
    expect(forced.body.content).toMatch(/^\d+$/);
  });

  test("a wrong status, code, text or event count fails the row", async () => {
    await expect(runScenario({ ...bobSays, status: 204 })).rejects.toThrow();
    await expect(runScenario({ ...bobSays, contains: ["not in the answer"] })).rejects.toThrow();
    await expect(runScenario({ ...bobSays, notContains: ["hi from"] })).rejects.toThrow();
    await expect(runScenario({ ...bobSays, events: { "message.created": 2 } })).rejects.toThrow();
    // "*": 0 refuses any event type the row did not list.
    await expect(runScenario({ ...bobSays, events: { "*": 0 } })).rejects.toThrow();
    await expect(
      runScenario({
        name: "staff is closed",
        actor: "EchoBot",
        method: "POST",
        path: "/channels/{channel:staff}/messages",
        body: { content: "x" },
        status: 403,
        code: 50035,
      }),
    ).rejects.toThrow();
  });

  test("a refusal must name its code; unknown actors and placeholders are errors", async () => {
    await expect(runScenario({ ...bobSays, status: 403 })).rejects.toThrow("must name its error code");
    await expect(runScenario({ ...bobSays, actor: "nobody" })).rejects.toThrow('scenario actor "nobody"');
    await expect(runScenario({ ...bobSays, path: "/channels/{channel:nowhere}/messages" })).rejects.toThrow("no such name in the seed");
    await expect(runScenario({ ...bobSays, path: "/channels/{missing}/messages" })).rejects.toThrow("setup() answered no such value");
  });
});

scenarios("a table registers one test per row", [
  bobSays,
  { name: "anon is 401 on the bot API", actor: "anon", method: "GET", path: "/users/@me", status: 401, code: 0, events: { "*": 0 } },
  {
    name: "a stranger's channel is 404",
    actor: "carol",
    method: "GET",
    path: "/channels/{channel:general}/messages",
    status: 404,
    code: 10003,
  },
]);
