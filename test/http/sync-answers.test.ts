// A read with nothing to wait for is answered synchronously all the way through Elysia:
// a promise anywhere costs every answer a turn of the event loop (src/wire/mount.ts).
import { expect, test } from "bun:test";
import { ORIGIN, makeParley, seedBasic } from "../helpers";

test("GET /users/@me and a message read answer without a promise; a post answers with one", async () => {
  const p = makeParley({ harness: false });
  const w = seedBasic(p);
  const headers = { Authorization: `Bot ${w.applications.EchoBot.token}` };
  const general = w.guilds.Lab.channels.general;
  const me = p.http.fetch(new Request(`${ORIGIN}/api/v10/users/@me`, { headers }));
  expect(me).toBeInstanceOf(Response);
  expect((me as Response).status).toBe(200);
  const post = p.http.fetch(
    new Request(`${ORIGIN}/api/v10/channels/${general}/messages`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: '{"content":"x"}',
    }),
  );
  expect(post).toBeInstanceOf(Promise);
  const sent = (await (await post).json()) as { id: string };
  await Bun.sleep(1); // the group commit has settled: nothing waits to commit
  const read = p.http.fetch(new Request(`${ORIGIN}/api/v10/channels/${general}/messages/${sent.id}`, { headers }));
  expect(read).toBeInstanceOf(Response);
  expect((read as Response).status).toBe(200);
  await p.stop();
});
