/**
 * Every reason the core ends a person's session for (the live connection's 4001 close
 * reason) has its own message in the web client, so a person signed out is told why;
 * anything else (a refused hello) reads as a plain ending.
 */
import { expect, test } from "bun:test";
import { SESSION_END_REASONS } from "../../src/core/events";
import { SESSION_ENDED, sessionEndedMessage } from "../../src/web/session-ended";

test("each reason a session ends for has a message of its own, and only those", () => {
  expect(Object.keys(SESSION_ENDED).sort()).toEqual([...SESSION_END_REASONS].sort());
  const messages = SESSION_END_REASONS.map(sessionEndedMessage);
  expect(new Set(messages).size).toBe(SESSION_END_REASONS.length);
  expect(messages).not.toContain(sessionEndedMessage("Not authenticated"));
});

test("a reason the client does not know, or an inherited property's name, reads as a plain ending", () => {
  expect(sessionEndedMessage("Not authenticated")).toBe("Your session has ended. Sign in again.");
  expect(sessionEndedMessage("toString")).toBe("Your session has ended. Sign in again.");
  expect(sessionEndedMessage("device_removed")).toMatch(/^This browser's device was removed from your account\./);
});
