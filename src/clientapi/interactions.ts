/**
 * People run slash commands and click components: POST /channels/{channel_id}/interactions.
 * Our own JSON with internal ids (option values naming users, roles or channels too).
 * Answers {id, delivered}; `delivered` is false when the bot had no live gateway
 * session, in which case the spec drops the interaction. An ATTACHMENT option's value
 * is the id of a filled upload slot of the channel (POST /channels/{id}/attachments), as
 * a message's files are named; the command waits for its bytes' flush as a message does.
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
        const run = () => {
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
        };
        // Only a command naming uploads whose bytes are still being flushed waits (core/media-flush.ts).
        const named = "options" in b ? optionStrings((b.options as RawOption[] | undefined) ?? []) : [];
        const flushed = named.length ? p.core.media.flushed(me.id, named) : null;
        return flushed ? flushed.then(run) : run();
      },
    }),
  ];
}

/** Every string value in a command's options, at any depth: those naming upload slots are the files. */
function optionStrings(options: RawOption[]): string[] {
  return options.flatMap((o) => [...(typeof o.value === "string" ? [o.value] : []), ...optionStrings(o.options ?? [])]);
}
