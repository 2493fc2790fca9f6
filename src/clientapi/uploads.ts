/**
 * A person's files (issue 31): the reference's two-step upload. First the files are
 * named and sized (`POST /channels/{id}/attachments`, `POST /uploads`), so every refusal
 * (rights, counts, sizes, the person's storage) comes before a byte is sent; then each
 * file's bytes are PUT raw to its slot, streamed to disk (core/media.ts); then a message
 * (or an avatar, an icon, an emoji) names the slot. Also here: one's avatar, a server's
 * icon, and a server's emoji as its settings manage them.
 */
import * as C from "../contract";
import { OpenAttachments, OpenImageUpload, SetImage, NewEmoji, EditEmoji } from "../contract";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, route, type PeopleRoute } from "./http";
import { customEmojiView, uploadView } from "./media-views";
import { guildView } from "./views";

export function uploadRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "POST",
      path: "/channels/{channel_id}/attachments",
      caller: "session",
      summary: "Ask to attach files to a message in a channel: one upload slot per file",
      body: OpenAttachments,
      answer: Type.Array(C.Upload),
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        return core.media.openAttachments(me.id, c, body().files).map(uploadView);
      },
    }),
    route({
      method: "POST",
      path: "/uploads",
      caller: "session",
      summary: "Ask to upload an image: one's avatar, or a server's icon or emoji (`guild_id`)",
      body: OpenImageUpload,
      answer: C.Upload,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        const guildId = b.guild_id === undefined ? null : pathId(b.guild_id, "guild");
        return uploadView(core.media.openImage(me.id, b.purpose, { filename: b.filename, size: b.size }, guildId));
      },
    }),
    route({
      method: "DELETE",
      path: "/uploads/{upload_id}",
      caller: "session",
      summary: "Give an upload slot up (a cancelled upload, a file removed before sending)",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.media.cancel(me.id, pathId(params.upload_id, "upload"));
      },
    }),
    route({
      method: "PUT",
      path: "/guilds/{guild_id}/icon",
      caller: "session",
      summary: "Set a server's icon from a filled upload slot, or clear it (MANAGE_GUILD)",
      body: SetImage,
      answer: C.Guild,
      handler: async ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = body();
        const guild = await core.media.setGuildIcon(me.id, g, b.upload_id === null ? null : { uploadId: b.upload_id });
        return guildView(core, guild, me.id);
      },
    }),
    ...emojiRoutes(p),
  ];
}

function emojiRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const path = "/guilds/{guild_id}/emojis";
  return [
    route({
      method: "GET",
      path,
      caller: "session",
      summary: "A server's own emoji",
      answer: Type.Array(C.CustomEmoji),
      handler: ({ caller: { user: me }, params }) => core.emojis.list(me.id, pathId(params.guild_id, "guild")).map(customEmojiView),
    }),
    route({
      method: "POST",
      path,
      caller: "session",
      summary: "Add an emoji from a filled upload slot of purpose `emoji` (MANAGE_EXPRESSIONS)",
      body: NewEmoji,
      answer: C.CustomEmoji,
      handler: async ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = body();
        return customEmojiView(await core.emojis.create(me.id, g, { name: b.name, image: { uploadId: b.upload_id } }));
      },
    }),
    route({
      method: "PATCH",
      path: `${path}/{emoji_id}`,
      caller: "session",
      summary: "Rename an emoji (MANAGE_EXPRESSIONS)",
      body: EditEmoji,
      answer: C.CustomEmoji,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const e = pathId(params.emoji_id, "emoji");
        return customEmojiView(core.emojis.edit(me.id, g, e, { name: body().name }));
      },
    }),
    route({
      method: "DELETE",
      path: `${path}/{emoji_id}`,
      caller: "session",
      summary: "Delete an emoji (MANAGE_EXPRESSIONS)",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.emojis.delete(me.id, pathId(params.guild_id, "guild"), pathId(params.emoji_id, "emoji"));
      },
    }),
  ];
}

/**
 * The one route that reads a raw body: a slot's bytes. It declares no JSON body, so the
 * pipeline reads nothing and the stream goes to disk as it arrives; its door screens a
 * Content-Length past the largest file before anything (http.ts), and the core one past
 * the slot's declared size.
 */
export function uploadBodyRoutes(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "PUT",
      path: "/uploads/{upload_id}",
      caller: "session",
      summary: "A slot's bytes, raw (any Content-Type); answered once they are written (their flush follows: what names them waits for it)",
      answer: C.Upload,
      handler: async ({ caller: { user: me }, params, request, headers }) => {
        const id = pathId(params.upload_id, "upload");
        const declared = headers.get("content-length");
        const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null;
        const body = request.body ?? new Uint8Array();
        return uploadView(await p.core.media.receive(me.id, id, body, length));
      },
    }),
  ];
}
