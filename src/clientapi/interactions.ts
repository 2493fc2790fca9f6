/**
 * People run slash commands and click components: POST /channels/{channel_id}/interactions.
 * Our own JSON with internal ids (option values naming users, roles or channels too).
 * Answers {id, delivered}; `delivered` is false when the bot had no live gateway
 * session, in which case the spec drops the interaction.
 */
import type { ClientContext } from "./context";
import { InteractionBody } from "../contract";
import * as C from "../contract";
import { route, type PeopleRoute } from "./http";
import type { RawOption } from "../core";

export function clientInteractions(p: ClientContext): PeopleRoute[] {
  const delivery = { live: (botUserId: string) => p.bots.hasLiveSession(botUserId) };
  return [
    route({
      method: "POST",
      path: "/channels/{channel_id}/interactions",
      caller: "session",
      summary: "Run a slash, user or message command, or click a component",
      answer: C.InteractionSent,
      body: InteractionBody,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        const { interaction, delivered } =
          "custom_id" in b
            ? p.core.interactions.clickComponent(
                { userId: me.id, channelId: params.channel_id, messageId: b.message_id, customId: b.custom_id, values: b.values },
                delivery,
              )
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
