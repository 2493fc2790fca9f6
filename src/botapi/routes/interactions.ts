/**
 * POST /interactions/{interaction_id}/{interaction_token}/callback (spec 3.1, 4 rule 2):
 * no Authorization header; the token in the path is the credential.
 */
import { Type } from "@sinclair/typebox";
import type { Req, Reply, RouteDef } from "../http";
import { noContent, ok } from "../http";
import { DomainError } from "../../core/errors";
import { CALLBACK, LOADING, type ResponseMessage } from "../../core/interactions";
import { EPHEMERAL } from "../../core/messages";
import { messageJson } from "../../wire/serializers/message";
import { validateResponseMessage } from "./interaction-webhooks";

const CallbackBody = Type.Object({
  type: Type.Integer(),
  data: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
});

const WITH_RESPONSE = /^(true|1)$/i;

async function callback(req: Req): Promise<Reply> {
  const { api, params } = req;
  const core = api.core;
  const body = await req.body(CallbackBody);
  // The credential first: an unknown or foreign token is 10062 whatever the body says.
  const row = core.interactions.byToken(params.interaction_token);
  const id = api.flakes.uuid(params.interaction_id);
  if (row.id !== id) throw new DomainError("unknown_interaction", "Unknown interaction");
  let msg: ResponseMessage | undefined;
  if (body.type === CALLBACK.MESSAGE || body.type === CALLBACK.UPDATE) msg = validateResponseMessage(body.data ?? {}, "data.");
  if (body.type === CALLBACK.DEFERRED_MESSAGE) msg = { flags: validateResponseMessage(body.data ?? {}, "data.").flags };
  const { interaction, message } = core.interactions.callback(id, params.interaction_token, body.type, msg);
  if (!WITH_RESPONSE.test(req.query.get("with_response") ?? "")) return noContent();

  const resource: Record<string, unknown> = { type: body.type };
  if (message && (body.type === CALLBACK.MESSAGE || body.type === CALLBACK.UPDATE))
    resource.message = messageJson(api, message, { content: true, viewerId: core.apps.get(interaction.application_id)?.bot_user_id ?? null });
  const responseId = interaction.response_message_id;
  const inter: Record<string, unknown> = { id: api.flakes.of(interaction.id), type: interaction.type };
  if (responseId) {
    inter.response_message_id = api.flakes.of(responseId);
    inter.response_message_loading = message ? (message.flags & LOADING) !== 0 : false;
    inter.response_message_ephemeral = message ? (message.flags & EPHEMERAL) !== 0 : false;
  }
  return ok({ interaction: inter, resource });
}

export const interactionRoutes: RouteDef[] = [
  { method: "POST", path: "/interactions/{interaction_id}/{interaction_token}/callback", auth: "none", handler: callback },
];
