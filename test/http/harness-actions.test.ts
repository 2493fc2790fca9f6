/**
 * The harness plays everything people do (design/harness.md): edit and delete their own
 * messages (DMs re-encrypted), type, invite, join by invite, leave, and run context-menu
 * commands on a user or a message, through the SDK as a test would.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import { HarnessError } from "../../src/testing/types";
import { BASIC_WORLD, recordEvents, serverOf } from "../helpers";

let parley: RunningParley;
const events = () =>
  serverOf(parley)
    .events!.after(0)
    .map((e) => JSON.parse(e.frame));

beforeEach(async () => {
  parley = await startParley({ world: structuredClone(BASIC_WORLD) });
});
afterEach(() => parley.stop());

const refused = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof HarnessError ? [e.status, (e.body as { code: number }).code] : String(e);
  }
};

describe("harness person actions", () => {
  test("edit and delete one's own message; another's is refused", async () => {
    const { id } = await parley.as("bob").say("general", "frist");
    await parley.as("bob").edit(id, "first");
    expect((await parley.messages("general"))[0]).toMatchObject({ id, content: "first" });
    expect((await parley.messages("general"))[0].edited_timestamp).toBeString();
    expect(await refused(parley.as("carol").edit(id, "mine now"))).toEqual([404, 10003]);
    expect(await refused(parley.as("alice").edit(id, "owner edit"))).toEqual([403, 50001]);
    await parley.as("bob").delete(id);
    expect((await parley.messages("general")).find((m) => m.id === id)).toBeUndefined();
  });

  test("a DM edit is encrypted again: the recipient reads the new text, the database never holds it", async () => {
    const { id, channel_id } = await parley.as("bob").dm("alice", "see you at 5");
    await parley.as("bob").edit(id, "see you at 6");
    const read = await parley.harness("GET", `/channels/${channel_id}/messages?as=alice`);
    expect(read[0].content).toBe("see you at 6");
    const row = parley.parley!.store.db.query("SELECT content, ciphertext FROM messages").all() as {
      content: string;
      ciphertext: string;
    }[];
    expect(JSON.stringify(row)).not.toContain("see you");
  });

  test("typing fires typing.started (TYPING_START to bots), under the same rules as sending", async () => {
    const ev = recordEvents(serverOf(parley));
    await parley.as("bob").type("general");
    expect(ev.of("typing.started")).toEqual([
      expect.objectContaining({ userId: parley.parley!.api.flakes.uuid(parley.world.users.bob.id) }),
    ]);
    expect(await refused(parley.as("bob").type("staff"))).toEqual([403, 50001]);
    expect(await refused(parley.as("carol").type("general"))).toEqual([404, 10003]);
  });

  test("invite, join, leave", async () => {
    const code = await parley.as("alice").invite("general", { maxUses: 1 });
    const guild = await parley.as("carol").join(code);
    expect(guild).toBe(parley.world.guilds.Lab.id);
    expect((await parley.as("carol").say("general", "hi all")).id).toBeString();
    // A one-use invite is used up.
    expect(await refused(parley.as("bob").join(code))).toEqual([404, 10003]);
    await parley.as("carol").leave("Lab");
    expect(await refused(parley.as("carol").say("general", "still here?"))).toEqual([404, 10003]);
    expect(await refused(parley.as("alice").leave("Lab"))).toEqual([400, 50035]);
  });

  test("context-menu commands on a user and on a message carry their target", async () => {
    const app = parley.world.applications.EchoBot;
    await fetch(`${parley.restBase}/applications/${app.id}/commands`, {
      method: "PUT",
      headers: { Authorization: `Bot ${parley.tokenOf("EchoBot")}`, "Content-Type": "application/json" },
      body: JSON.stringify([
        { name: "Profile", type: 2 },
        { name: "Quote", type: 3 },
      ]),
    });
    const onUser = await parley.as("alice").useOn("general", "EchoBot", "Profile", { user: "bob" });
    const { id } = await parley.as("bob").say("general", "quotable");
    const onMessage = await parley.as("alice").useOn("general", "EchoBot", "Quote", { message: id });
    // Without a live bot session the interactions are dropped (spec 3.1), but their targets were checked.
    expect([onUser.delivered, onMessage.delivered]).toEqual([false, false]);
    expect(await refused(parley.as("alice").useOn("general", "EchoBot", "Profile", { user: "123456789012345678" }))).toEqual([400, 50035]);
    expect(events()).toEqual([]);
  });
});
