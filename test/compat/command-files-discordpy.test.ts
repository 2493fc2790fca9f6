/**
 * Application commands of a real discord.py 2.x bot, run by a person through the people's
 * API as the web client runs them: a `discord.Attachment` parameter gets the file the
 * person uploaded (Attachment.read() downloads the very bytes through its signed link),
 * and a Group with a subgroup is dispatched by the library's CommandTree from the
 * reference's nested options (SUB_COMMAND_GROUP > SUB_COMMAND > options).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import type { Parley } from "../../src/app";
import { serverOf } from "../helpers";
import { png } from "../support/png";
import { PyBot, requireDiscordPy } from "./support";

const WORLD = {
  users: [{ name: "alice" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  applications: [{ name: "ScanBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] }],
};

let P: RunningParley;
let p: Parley;
let bot: PyBot;
let token: string;

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: WORLD });
  p = serverOf(P);
  bot = PyBot.start("py_command_files_bot.py", [P.baseUrl, P.gatewayUrl, P.tokenOf("ScanBot"), P.world.guilds.Lab.id], 15_000);
  expect((await bot.event("ready")).synced).toEqual(["scan", "settings"]);
  token = (await P.as("alice").session()).token;
}, 90_000);

afterAll(async () => {
  await bot?.stop();
  await P?.stop();
});

const id = (flake: string) => p.api.flakes.uuid(flake)!;
const general = () => id(P.world.guilds.Lab.channels.general);

async function people(method: string, path: string, body?: unknown, raw?: Uint8Array): Promise<Response> {
  return fetch(`${P.baseUrl}/api/client/v1${path}`, {
    method,
    headers: { Authorization: `Session ${token}`, "Content-Type": raw ? "application/octet-stream" : "application/json" },
    body: raw ? (raw as BodyInit) : body === undefined ? undefined : JSON.stringify(body),
  });
}

function run(name: string, options: unknown[]) {
  return people("POST", `/channels/${general()}/interactions`, {
    application_id: id(P.world.applications.ScanBot.id),
    name,
    type: 1,
    options,
  });
}

describe("discord.py", () => {
  test("a discord.Attachment parameter: the person's file, read whole with Attachment.read()", async () => {
    const image = png(9, 7, 4);
    const slots = await people("POST", `/channels/${general()}/attachments`, { files: [{ filename: "shot.png", size: image.byteLength }] });
    expect(slots.status).toBe(200);
    const [slot] = (await slots.json()) as { id: string }[];
    expect((await people("PUT", `/uploads/${slot.id}`, undefined, image)).status).toBe(200);
    const r = await run("scan", [
      { name: "file", value: slot.id },
      { name: "note", value: "a cat?" },
    ]);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { delivered: boolean }).delivered).toBe(true);
    expect(await bot.scenario("scan")).toEqual({
      scenario: "scan",
      id: p.api.flakes.of(slot.id),
      filename: "shot.png",
      size: image.byteLength,
      content_type: "image/png",
      width: 9,
      height: 7,
      ephemeral: true,
      sha256: new Bun.CryptoHasher("sha256").update(image).digest("hex"),
      note: "a cat?",
    });
    await P.waitForMessage("general", (m) => m.content === "scanned shot.png");
  }, 30_000);

  test("a Group with a subgroup: the CommandTree dispatches the nested options to the right callback", async () => {
    const r = await run("settings", [{ name: "group", options: [{ name: "view", options: [{ name: "n", value: 3 }] }] }]);
    expect(r.status).toBe(200);
    expect(await bot.scenario("group-view")).toEqual({ scenario: "group-view", command: "settings group view", n: 3 });
    expect((await run("settings", [{ name: "reset", options: [] }])).status).toBe(200);
    expect(await bot.scenario("reset")).toEqual({ scenario: "reset", command: "settings reset" });
    expect(bot.lines.filter((l) => l.event === "command-error")).toEqual([]);
  }, 30_000);
});
