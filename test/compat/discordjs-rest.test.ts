import { afterAll, beforeAll, expect, test } from "bun:test";
import { REST, Routes, HTTPError } from "discord.js";
import { startServer } from "./support";
import { seedBasic } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let w: ReturnType<typeof seedBasic>;
beforeAll(() => {
  p = startServer();
  w = seedBasic(p);
});
afterAll(() => p.stop());

test("discord.js REST: /gateway/bot and /users/@me resolve; a 501 route rejects with the library's HTTPError", async () => {
  const rest = new REST({ api: `${p.api.urls.base}/api`, retries: 0 }).setToken(w.applications.EchoBot.token);
  const gw = (await rest.get(Routes.gatewayBot())) as any;
  expect(gw.url).toBe(p.api.urls.gateway);
  const me = (await rest.get(Routes.user())) as any;
  expect(me.id).toBe(w.applications.EchoBot.bot_user_id);
  const err: any = await rest.get(Routes.sticker("123456789012345678")).catch((e: unknown) => e);
  // discord.js surfaces every 5xx as HTTPError (it keeps DiscordAPIError for 4xx bodies).
  expect(err).toBeInstanceOf(HTTPError);
  expect(err.status).toBe(501);
});
