/**
 * The people's API contract (src/contract) is the one statement of its shapes: the
 * limits it restates are the core's, every route that answers JSON declares its answer,
 * and the test helpers hold every success to that declaration.
 */
import { describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { LIMITS, PRESENCES, Message } from "../../src/contract";
import { MAX_CONTENT } from "../../src/core/people";
import { INVITE_MAX_AGE, INVITE_MAX_USES } from "../../src/core/invites";
import { MAX_BAN_DELETE_SECONDS } from "../../src/core/moderation";
import { PRESENCES as CORE_PRESENCES } from "../../src/core/users";
import { client, peopleWorld } from "../helpers";

describe("the people's API contract", () => {
  test("states the core's own limits", () => {
    expect(LIMITS).toEqual({
      content: MAX_CONTENT,
      inviteMaxAge: INVITE_MAX_AGE,
      inviteMaxUses: INVITE_MAX_USES,
      banDeleteSeconds: MAX_BAN_DELETE_SECONDS,
    });
    expect([...PRESENCES]).toEqual([...CORE_PRESENCES]);
  });

  test("every route of the people's API declares its answer: a schema, or nothing (204)", () => {
    const { p } = peopleWorld();
    const undeclared = p.routes
      .filter((d) => d.prefix === "/api/client/v1")
      .flatMap((d) => d.routes)
      .filter((r) => !r.answer && r.answers !== "empty")
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  test("a message as the server answers it is a contract Message, and one that drifted is not", async () => {
    const { p, bob, general } = peopleWorld();
    const sent = await client(p, "POST", `/channels/${general}/messages`, bob, { content: "hi" });
    expect(sent.status).toBe(200);
    const check = TypeCompiler.Compile(Message);
    expect(check.Check(sent.body)).toBe(true);
    const { reply_to: _gone, ...drifted } = sent.body;
    expect(check.Check(drifted)).toBe(false);
    expect(check.Check({ ...sent.body, created_at: 1 })).toBe(false);
  });
});
