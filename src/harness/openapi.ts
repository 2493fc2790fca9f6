/**
 * The harness's part of the API description (test mode only): each route with the
 * schema its handler validates the body with; docs/harness.md has the answers, with
 * examples. A route added to the harness belongs here too: test/ops/openapi.test.ts
 * checks that every registered route is described.
 */
import { Type } from "@sinclair/typebox";
import type { ApiFragment, ApiOperation, HttpMethod } from "../wire/openapi";
import { ClockBody, SettleBody } from "./clock";
import { DmBody } from "./dms";
import { CommandBody, ComponentBody } from "./interactions";
import { PinBody, ReactBody, SayBody } from "./people";
import { WorldSchema } from "./seed";
import { FaultSchema } from "./faults";
import { ChannelBody, EditBody, InviteBody } from "./actions";

const P = "/api/harness/v1";

function op(method: HttpMethod, path: string, summary: string, extra: Partial<ApiOperation> = {}): ApiOperation {
  return { method, path: P + path, summary, auth: "none", ...extra };
}

export function harnessFragment(): ApiFragment {
  return {
    tag: "harness",
    description:
      "The test harness, mounted only in test mode (--harness): seed a world, act as the people around a bot, read what the bot did, move the clock. Ids are the snowflakes bots see; people are named by their seed name or snowflake.",
    operations: [
      op("POST", "/reset", "Empty the world, every session and window; real time again"),
      op("POST", "/seed", "Create a world document in one transaction; answers its ids and tokens", { body: WorldSchema }),
      op("POST", "/clock", "Advance or set the virtual clock; live sessions survive the jump unless zombie is true", { body: ClockBody }),
      op("GET", "/clock", "The server's time, and whether the clock is virtual"),
      op("POST", "/settle", "Wait until the bots are quiet: no request in flight, no frame received for quiet_ms", { body: SettleBody }),
      op("GET", "/cursor", "The event log's and the transcripts' cursors now, for reading only what comes next"),
      op("POST", "/applications/{application_id}/rotate", "Mint a new bot token"),
      op("GET", "/applications/{application_id}/sessions", "The application's gateway sessions"),
      op("GET", "/events", "Dispatch frames sent to bots (application, type, after)"),
      op("POST", "/users/{user}/messages", "Say something as a person", { body: SayBody }),
      op("GET", "/channels/{channel_id}/messages", "Read a channel as a person sees it (as, limit, before, after)"),
      op("PUT", "/users/{user}/reactions", "React as a person", { body: ReactBody }),
      op("DELETE", "/users/{user}/reactions", "Take a person's reaction back", { body: ReactBody }),
      op("PUT", "/users/{user}/pins", "Pin a message as a person (Manage Messages)", { body: PinBody }),
      op("DELETE", "/users/{user}/pins", "Unpin a message as a person", { body: PinBody }),
      op("POST", "/users/{user}/device", "Give a person the harness's device (its public keys), as their client would"),
      op("POST", "/users/{user}/dms", "Send a direct message as a person (their client encrypts it)", { body: DmBody }),
      op("POST", "/users/{user}/interactions", "Run a slash command or click a component as a person", { body: Type.Union([CommandBody, ComponentBody]) }),
      op("GET", "/interactions/{id}", "What became of an interaction"),
      op("PATCH", "/users/{user}/messages/{message_id}", "Edit a person's own message (a DM is encrypted again)", { body: EditBody }),
      op("DELETE", "/users/{user}/messages/{message_id}", "Delete a message as a person"),
      op("POST", "/users/{user}/typing", "Start typing as a person", { body: ChannelBody }),
      op("POST", "/users/{user}/invites", "Make an invite as a person", { body: InviteBody }),
      op("POST", "/users/{user}/invites/{code}", "Join a server by invite as a person"),
      op("DELETE", "/users/{user}/guilds/{guild_id}", "Leave a server as a person"),
      op("POST", "/faults", "Break something on purpose: gateway close, invalid session, dropped ACKs, REST errors, latency", { body: FaultSchema }),
      op("GET", "/faults", "The armed faults and how many uses each has left"),
      op("DELETE", "/faults/{id}", "Disarm a fault"),
      op("GET", "/applications/{application_id}/transcript", "Everything between a bot and Parley (after, format=text)"),
      op("GET", "/coverage", "What the run's tests exercised: events, routes, commands and components per application, kept across resets"),
      op("DELETE", "/coverage", "Start coverage over"),
    ],
  };
}
