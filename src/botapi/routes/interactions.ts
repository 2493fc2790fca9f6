/**
 * POST /interactions/{interaction_id}/{interaction_token}/callback (spec 3.1, 4 rule 2):
 * no Authorization header; the token in the path is the credential.
 */
import { Type, type Static } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Reply, type TokenReq } from "../http";
import { CALLBACK, EPHEMERAL, INTENTS, LOADING, type ResponseMessage } from "../../core";
import { messageOut } from "../present";
import { validateResponseMessage } from "./interaction-webhooks";

export const CallbackBody = Type.Object({
  type: Type.Integer(),
  data: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
});

const WITH_RESPONSE = /^(true|1)$/i;

function callback(req: TokenReq<Static<typeof CallbackBody>>): Reply {
  const { ctx: api, params } = req;
  const core = api.core;
  const body = req.body();
  // The credential before the message: an unknown or foreign token is 10062 whatever the data says.
  const auth = core.interactionResponses.authorize(params.interaction_token, { interactionId: api.flakes.uuid(params.interaction_id) });
  let msg: ResponseMessage | undefined;
  if (body.type === CALLBACK.MESSAGE || body.type === CALLBACK.UPDATE) msg = validateResponseMessage(body.data ?? {}, api.flakes, "data.");
  if (body.type === CALLBACK.DEFERRED_MESSAGE) msg = { flags: validateResponseMessage(body.data ?? {}, api.flakes, "data.").flags };
  const { interaction, message } = core.interactionResponses.callback(auth, body.type, msg);
  if (!WITH_RESPONSE.test(req.query.get("with_response") ?? "")) return noContent();

  const resource: Record<string, unknown> = { type: body.type };
  if (message && (body.type === CALLBACK.MESSAGE || body.type === CALLBACK.UPDATE))
    resource.message = messageOut(api, message, {
      viewer: { botUserId: core.apps.require(interaction.application_id).bot_user_id, intents: INTENTS.MESSAGE_CONTENT },
    });
  const responseId = interaction.response_message_id;
  const inter: Record<string, unknown> = { id: api.flakes.of(interaction.id), type: interaction.type };
  if (responseId) {
    inter.response_message_id = api.flakes.of(responseId);
    inter.response_message_loading = message ? (message.flags & LOADING) !== 0 : false;
    inter.response_message_ephemeral = message ? (message.flags & EPHEMERAL) !== 0 : false;
  }
  return ok({ interaction: inter, resource });
}

export const interactionRoutes: BotRoute[] = [
  route({
    method: "POST",
    path: "/interactions/{interaction_id}/{interaction_token}/callback",
    caller: "token",
    summary: "Answer an interaction (the token in the path is the credential)",
    body: CallbackBody,
    query: Type.Object({ with_response: Type.Optional(Type.Boolean()) }),
    handler: callback,
  }),
];
