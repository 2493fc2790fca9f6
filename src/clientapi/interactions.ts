/**
 * People run slash commands and click components: POST /channels/{channel_id}/interactions.
 * Our own JSON with internal ids (option values naming users, roles or channels too).
 * Answers {id, delivered}; `delivered` is false when the bot had no live gateway
 * session, in which case the spec drops the interaction.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { route, type PeopleRoute } from "./http";
import type { RawOption } from "../core/interactions";

const Id = Type.String({ minLength: 1, maxLength: 64 });

const RawOptionSchema = Type.Recursive((This) =>
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 32 }),
    value: Type.Optional(Type.Union([Type.String({ maxLength: 6000 }), Type.Number(), Type.Boolean()])),
    options: Type.Optional(Type.Array(This, { maxItems: 25 })),
  }),
);

export const Body = Type.Union([
  Type.Object({
    message_id: Id,
    custom_id: Type.String({ minLength: 1, maxLength: 100 }),
    values: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 25 })),
  }),
  Type.Object({
    application_id: Id,
    name: Type.String({ minLength: 1, maxLength: 32 }),
    type: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    options: Type.Optional(Type.Array(RawOptionSchema, { maxItems: 25 })),
    /** A context-menu command's target: a user (type 2) or a message (type 3). */
    target_id: Type.Optional(Id),
  }),
]);

export function clientInteractions(p: ClientContext): PeopleRoute[] {
  const delivery = { live: (botUserId: string) => p.bots.hasLiveSession(botUserId) };
  return [
    route({
      method: "POST",
      path: "/channels/{channel_id}/interactions",
      caller: "session",
      summary: "Run a slash, user or message command, or click a component",
      body: Body,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        const { interaction, delivered } =
          "custom_id" in b
            ? p.core.interactions.clickComponent({ userId: me.id, channelId: params.channel_id, messageId: b.message_id, customId: b.custom_id, values: b.values }, delivery)
            : p.core.interactions.runCommand(
                {
                  userId: me.id,
                  channelId: params.channel_id,
                  applicationId: b.application_id,
                  name: b.name,
                  type: b.type,
                  options: b.options as RawOption[] | undefined,
                  resolveId: (raw) => raw,
                  targetId: b.target_id,
                },
                delivery,
              );
        return { id: interaction.id, delivered };
      },
    }),
  ];
}
