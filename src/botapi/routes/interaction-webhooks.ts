/**
 * Interaction follow-ups share their paths with webhook execution
 * (/webhooks/{application_id}/{token}...). routes/webhooks.ts serves both and hands
 * the requests whose first segment is not a webhook to these functions.
 * Placeholder until the interactions area replaces this file: every interaction
 * token is unknown here.
 */
import { DomainError } from "../../core/errors";
import type { Reply, Req } from "../http";

function unknown(): never {
  throw new DomainError("unknown_interaction", "Unknown interaction");
}

/** POST /webhooks/{application_id}/{token} */
export function interactionFollowupCreate(_req: Req): Reply | Promise<Reply> {
  unknown();
}

/** GET /webhooks/{application_id}/{token}/messages/{message_id} */
export function interactionFollowupGet(_req: Req): Reply | Promise<Reply> {
  unknown();
}

/** PATCH /webhooks/{application_id}/{token}/messages/{message_id} */
export function interactionFollowupEdit(_req: Req): Reply | Promise<Reply> {
  unknown();
}

/** DELETE /webhooks/{application_id}/{token}/messages/{message_id} */
export function interactionFollowupDelete(_req: Req): Reply | Promise<Reply> {
  unknown();
}
