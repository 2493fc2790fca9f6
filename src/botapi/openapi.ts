/**
 * The bot API's part of the API description: every route of the pipeline's table, as
 * implemented, with the body schema each handler validates with. Answers are the
 * reference platform's JSON (docs/spec/bot-api-spec.md), not described here.
 */
import type { TSchema } from "@sinclair/typebox";
import type { ApiFragment } from "../wire/openapi";
import { botApiRoutes } from "./index";
import { MessageBodySchema } from "./schemas/message";
import { BanBody } from "./routes/bans";
import { CreateChannelBody, EditChannelBody, OverwriteBody } from "./routes/channels";
import { BulkSchema, CommandPatchSchema, CommandSchema } from "./routes/commands";
import { CreateDmBody } from "./routes/dms";
import { CallbackBody } from "./routes/interactions";
import { EditCurrentMemberBody, EditMemberBody } from "./routes/members";
import { BulkDeleteBody } from "./routes/messages";
import { ReorderRolesBody, RoleBody } from "./routes/roles";
import { CreateWebhookBody, EditWebhookBody, EditWebhookWithTokenBody, ExecuteWebhookBody } from "./routes/webhooks";

/** "METHOD template" -> [schema, may the body be left out]. */
const BODIES: Record<string, [TSchema, boolean?]> = {
  "POST /channels/{channel_id}/messages": [MessageBodySchema],
  "PATCH /channels/{channel_id}/messages/{message_id}": [MessageBodySchema],
  "POST /channels/{channel_id}/messages/bulk-delete": [BulkDeleteBody],
  "PATCH /channels/{channel_id}": [EditChannelBody],
  "POST /guilds/{guild_id}/channels": [CreateChannelBody],
  "PUT /channels/{channel_id}/permissions/{overwrite_id}": [OverwriteBody],
  "PUT /guilds/{guild_id}/bans/{user_id}": [BanBody, true],
  "POST /applications/{application_id}/commands": [CommandSchema],
  "POST /applications/{application_id}/guilds/{guild_id}/commands": [CommandSchema],
  "PUT /applications/{application_id}/commands": [BulkSchema],
  "PUT /applications/{application_id}/guilds/{guild_id}/commands": [BulkSchema],
  "PATCH /applications/{application_id}/commands/{command_id}": [CommandPatchSchema],
  "PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}": [CommandPatchSchema],
  "POST /users/@me/channels": [CreateDmBody],
  "POST /interactions/{interaction_id}/{interaction_token}/callback": [CallbackBody],
  "PATCH /guilds/{guild_id}/members/{user_id}": [EditMemberBody, true],
  "PATCH /guilds/{guild_id}/members/@me": [EditCurrentMemberBody, true],
  "PATCH /guilds/{guild_id}/members/@me/nick": [EditCurrentMemberBody, true],
  "POST /guilds/{guild_id}/roles": [RoleBody, true],
  "PATCH /guilds/{guild_id}/roles": [ReorderRolesBody],
  "PATCH /guilds/{guild_id}/roles/{role_id}": [RoleBody, true],
  "POST /channels/{channel_id}/webhooks": [CreateWebhookBody],
  "PATCH /webhooks/{webhook_id}": [EditWebhookBody, true],
  "PATCH /webhooks/{webhook_id}/{webhook_token}": [EditWebhookWithTokenBody, true],
  "POST /webhooks/{webhook_id}/{webhook_token}": [ExecuteWebhookBody, true],
  "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": [MessageBodySchema],
};

export function botApiFragment(): ApiFragment {
  const seen = new Set<string>();
  return {
    tag: "bot",
    description:
      "The bot API: the reference platform's v10 dialect, for bot libraries (discord.js, discord.py). Ids are snowflakes; answers are the reference's JSON shapes; every route not listed answers 501.",
    operations: botApiRoutes
      .filter((r) => {
        const key = `${r.method} ${r.path}`;
        return !seen.has(key) && seen.add(key);
      })
      .map((r) => {
        const body = BODIES[`${r.method} ${r.path}`];
        return {
          method: r.method,
          path: `/api/v10${r.path}`,
          summary: `${r.method} ${r.path}`,
          // A refused route ("any") asks for nothing.
          auth: r.auth === "bot" ? "bot" : "none",
          ...(body ? { body: body[0], bodyOptional: body[1] === true } : {}),
        };
      }),
  };
}
