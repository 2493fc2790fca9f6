/**
 * The people's API's part of the API description: each route with the schema its
 * handler validates the body with (docs/people-api.md has the answers, with examples).
 * A route added to the API belongs here too: test/ops/openapi.test.ts checks that every
 * registered route is described.
 */
import type { ApiFragment, ApiOperation, HttpMethod } from "../wire/openapi";
import { SignIn, SignUp } from "./auth";
import { CreateChannel, EditChannel, Overwrite } from "./channels";
import { NewDevice } from "./devices";
import { OpenDm } from "./dms";
import { CreateGuild, EditGuild } from "./guilds";
import { Body as InteractionBody } from "./interactions";
import { CreateInvite } from "./invites";
import { EditMessage, SendMessage } from "./messages";
import { BanBody, ReasonBody } from "./moderation";
import { Approve, CreateApp, EditApp, Install, Intents } from "./portal";
import { SetPresence } from "./presence";
import { ChangePassword } from "./sessions";
import { MarkRead } from "./read-states";
import { CreateRole, EditRole, ReorderRoles } from "./roles";

const P = "/api/client/v1";

function op(method: HttpMethod, path: string, summary: string, extra: Partial<ApiOperation> = {}): ApiOperation {
  return { method, path: P + path, summary, auth: "session", ...extra };
}
const optional = (body: ApiOperation["body"]) => ({ body, bodyOptional: true });

/** Longer than 80 lines because it is a table, one line per route (to be derived from the routes themselves). */
export function clientApiFragment(): ApiFragment {
  return {
    tag: "people",
    description: "The people's API: what the web client, the developer portal and scripts use to act as a person. Internal ids (UUIDs); `Authorization: Session <token>`.",
    operations: [
      op("POST", "/auth/signup", "Sign up (a new person and a session)", { auth: "none", body: SignUp }),
      op("POST", "/auth/signin", "Sign in", { auth: "none", body: SignIn }),
      op("POST", "/auth/signout", "End this session"),
      op("GET", "/users/@me", "The signed-in person"),
      op("GET", "/users/@me/sessions", "One's sessions: what signed in, when each was last used and expires, which one is this"),
      op("DELETE", "/users/@me/sessions", "Sign out everywhere: end every session of one's own, this one included"),
      op("DELETE", "/users/@me/sessions/{session_id}", "End one of one's sessions"),
      op("POST", "/users/@me/password", "Change one's password (the current one first); every other session ends", { body: ChangePassword }),
      op("PUT", "/users/@me/presence", "Set one's presence", { body: SetPresence }),
      op("GET", "/guilds", "The servers one is in"),
      op("POST", "/guilds", "Create a server", { body: CreateGuild }),
      op("GET", "/guilds/{guild_id}", "A server"),
      op("PATCH", "/guilds/{guild_id}", "Edit a server", { body: EditGuild }),
      op("DELETE", "/users/@me/guilds/{guild_id}", "Leave a server"),
      op("GET", "/guilds/{guild_id}/members", "A server's members"),
      op("DELETE", "/guilds/{guild_id}/members/{user_id}", "Kick a member", optional(ReasonBody)),
      op("PUT", "/guilds/{guild_id}/bans/{user_id}", "Ban someone", optional(BanBody)),
      op("DELETE", "/guilds/{guild_id}/bans/{user_id}", "Lift a ban", optional(ReasonBody)),
      op("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "Give a member a role"),
      op("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "Take a role from a member"),
      op("GET", "/guilds/{guild_id}/channels", "A server's channels"),
      op("POST", "/guilds/{guild_id}/channels", "Create a channel", { body: CreateChannel }),
      op("GET", "/channels/{channel_id}", "A channel"),
      op("PATCH", "/channels/{channel_id}", "Edit a channel", { body: EditChannel }),
      op("DELETE", "/channels/{channel_id}", "Delete a channel"),
      op("PUT", "/channels/{channel_id}/overwrites/{target_id}", "Set a channel's permission overwrite", { body: Overwrite }),
      op("DELETE", "/channels/{channel_id}/overwrites/{target_id}", "Remove a channel's permission overwrite"),
      op("GET", "/guilds/{guild_id}/roles", "A server's roles"),
      op("POST", "/guilds/{guild_id}/roles", "Create a role (just above @everyone)", { body: CreateRole }),
      op("PATCH", "/guilds/{guild_id}/roles", "Reorder roles below one's highest", { body: ReorderRoles }),
      op("PATCH", "/guilds/{guild_id}/roles/{role_id}", "Edit a role", { body: EditRole }),
      op("DELETE", "/guilds/{guild_id}/roles/{role_id}", "Delete a role"),
      op("POST", "/channels/{channel_id}/invites", "Create an invite", optional(CreateInvite)),
      op("GET", "/invites/{code}", "An invite"),
      op("POST", "/invites/{code}", "Accept an invite (join its server)"),
      op("DELETE", "/invites/{code}", "Delete an invite"),
      op("GET", "/channels/{channel_id}/messages", "A channel's messages (limit, before, after)"),
      op("POST", "/channels/{channel_id}/messages", "Send a message (content in servers, ciphertext in DMs)", { body: SendMessage }),
      op("PATCH", "/channels/{channel_id}/messages/{message_id}", "Edit one's message", { body: EditMessage }),
      op("DELETE", "/channels/{channel_id}/messages/{message_id}", "Delete a message"),
      op("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", "React"),
      op("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", "Take one's reaction back"),
      op("POST", "/channels/{channel_id}/typing", "Say one is typing"),
      op("POST", "/channels/{channel_id}/interactions", "Run a slash, user or message command, or click a component", { body: InteractionBody }),
      op("GET", "/channels/{channel_id}/commands", "The commands one may run in a channel (global and the server's); type=2 or 3 lists user or message commands"),
      op("GET", "/users/@me/read-states", "How far one has read each channel: unread marks and mention counts"),
      op("PUT", "/channels/{channel_id}/read", "Mark a channel read up to a message", { body: MarkRead }),
      op("GET", "/users/@me/dms", "One's direct message channels"),
      op("POST", "/users/@me/dms", "Open a direct message channel", { body: OpenDm }),
      op("GET", "/users/@me/devices", "One's current devices (their public keys)"),
      op("POST", "/users/@me/devices", "Register this client as a device: its public keys, optionally a sealed key backup", { body: NewDevice }),
      op("DELETE", "/users/@me/devices/{device_id}", "Remove one of one's devices; the session holding it is signed out"),
      op("PUT", "/users/@me/devices/{device_id}/session", "Say this session holds one's device (a browser signed in again)"),
      op("GET", "/users/@me/key-backups", "One's passphrase-sealed key backups"),
      op("GET", "/channels/{channel_id}/devices", "The devices of a DM's two people, to encrypt for and to check the safety number"),
      op("GET", "/applications", "One's applications"),
      op("POST", "/applications", "Create an application (its token is shown once)", { body: CreateApp }),
      op("GET", "/applications/{application_id}", "An application"),
      op("PATCH", "/applications/{application_id}", "Edit an application", { body: EditApp }),
      op("DELETE", "/applications/{application_id}", "Delete an application"),
      op("POST", "/applications/{application_id}/token", "Rotate the bot token (shown once)"),
      op("PUT", "/applications/{application_id}/intents", "Set the intents the application asks for", { body: Intents }),
      op("POST", "/applications/{application_id}/privileged-requests", "Ask the administrator for privileged intents", { body: Intents }),
      op("GET", "/admin/privileged-requests", "Pending privileged intent requests (administrators)"),
      op("GET", "/admin/privileged-grants", "Applications with approved privileged intents (administrators)"),
      op("POST", "/admin/applications/{application_id}/privileged", "Approve, deny or revoke privileged intents (administrators)", { body: Approve }),
      op("GET", "/applications/{application_id}/install", "Where the application's bot is installed"),
      op("POST", "/applications/{application_id}/install", "Install the bot into a server", { body: Install }),
      op("DELETE", "/applications/{application_id}/guilds/{guild_id}", "Remove the bot from a server"),
      {
        method: "GET",
        path: "/api/media/v1/external/{signature}",
        summary: "An embed's picture through the image proxy (when the operator turned it on): the link is an embed's proxy_url, `?url=` the address it was signed for",
        auth: "none",
        answers: "image",
      },
    ],
  };
}
