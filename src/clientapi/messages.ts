/**
 * Messages in a channel the person can see. Server channels carry `content`; DM
 * channels carry only `ciphertext`, produced by the person's own client.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { EditMessage, SendMessage } from "../contract";
import * as C from "../contract";
import { DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { messageView } from "./views";

function page(q: URLSearchParams) {
  const raw = q.get("limit");
  const limit = raw === null ? 50 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw DomainError.invalid("limit", "Must be between 1 and 100.", "NUMBER_TYPE_MAX");
  const bound = (name: string) => {
    const v = q.get(name);
    if (v === null) return undefined;
    return pathId(v, "message");
  };
  const bounds = { before: bound("before"), after: bound("after"), around: bound("around") };
  if (Object.values(bounds).filter(Boolean).length > 1)
    throw DomainError.invalid("around", "Only one of around, before and after.", "BASE_TYPE_BAD_COMBINATION");
  return { limit, ...bounds };
}

export function messageRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/channels/{channel_id}/messages",
      caller: "session",
      summary: "A channel's messages (limit; around, before or after)",
      answer: Type.Array(C.Message),
      handler: ({ caller: { user: me }, params, query }) => {
        const c = pathId(params.channel_id, "channel");
        return core.people.list(me.id, c, page(query)).map((m) => messageView(core, m, me.id, p.flakes.media, p.flakes.files));
      },
    }),
    route({
      method: "POST",
      path: "/channels/{channel_id}/messages",
      caller: "session",
      summary: "Send a message (content in servers, ciphertext in DMs)",
      answer: C.Message,
      body: SendMessage,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = body();
        const attachments = b.attachments?.map((a) => ({ uploadId: a.upload_id, description: a.description, spoiler: a.spoiler }));
        const send = () => {
          const m = core.people.send(me.id, c, { content: b.content, ciphertext: b.ciphertext, replyTo: b.reply_to, attachments });
          return messageView(core, m, me.id, p.flakes.media, p.flakes.files);
        };
        // Only a post naming uploads whose bytes are still being flushed waits (core/media-flush.ts).
        const uploads = attachments?.map((a) => a.uploadId);
        const flushed = uploads?.length ? core.media.flushed(me.id, uploads) : null;
        return flushed ? flushed.then(send) : send();
      },
    }),
    route({
      method: "PATCH",
      path: "/channels/{channel_id}/messages/{message_id}",
      caller: "session",
      summary: "Edit one's message",
      answer: C.Message,
      body: EditMessage,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = body();
        const m = pathId(params.message_id, "message");
        const attachments =
          b.attachments &&
          b.attachments.map((a) => ("upload_id" in a ? { uploadId: a.upload_id, description: a.description, spoiler: a.spoiler } : a));
        const edit = () => {
          const edited = core.people.edit(me.id, c, m, { content: b.content, ciphertext: b.ciphertext, attachments });
          return messageView(core, edited, me.id, p.flakes.media, p.flakes.files);
        };
        const uploads = attachments?.map((a) => ("uploadId" in a ? a.uploadId : undefined));
        const flushed = uploads?.some((u) => u !== undefined) ? core.media.flushed(me.id, uploads) : null;
        return flushed ? flushed.then(edit) : edit();
      },
    }),
    route({
      method: "DELETE",
      path: "/channels/{channel_id}/messages/{message_id}",
      caller: "session",
      summary: "Delete a message",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.messages.deleteAs(me.id, pathId(params.channel_id, "channel"), pathId(params.message_id, "message"));
      },
    }),
  ];
}
