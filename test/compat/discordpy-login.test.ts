import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { BOTS, PYTHON, requireDiscordPy, runBot, startServer } from "./support";
import type { Parley } from "../../src/app";
import { seedBasic } from "../helpers";

let p: Parley;
let w: ReturnType<typeof seedBasic>;
beforeAll(() => {
  requireDiscordPy();
  p = startServer();
  w = seedBasic(p);
});
afterAll(() => p.stop());

test("discord.py logs in (users/@me, oauth2/applications/@me) and sees a 501 as HTTPException", async () => {
  const r = await runBot([PYTHON, join(BOTS, "py_login.py")], { PARLEY_BASE: p.api.urls.base, PARLEY_TOKEN: w.applications.EchoBot.token });
  expect(r.stderr).not.toContain("Traceback");
  expect(r.code).toBe(0);
  expect(r.events[0]).toEqual({
    event: "login",
    user_id: w.applications.EchoBot.bot_user_id,
    bot: true,
    app_id: w.applications.EchoBot.id,
    app_name: "EchoBot",
    owner_id: w.users.alice.id,
  });
  expect(r.events[1]).toEqual({ event: "http_error", status: 501, code: 0 });
});
