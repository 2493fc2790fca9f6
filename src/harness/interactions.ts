/**
 * The harness plays a person running a slash command or clicking a component
 * (design/harness.md), and shows what became of an interaction: its state, its
 * response and follow-ups with full content, ephemeral ones included.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError, RawOptionsSchema, type RawOption } from "../core";
import { route } from "./http";
import { harnessMessage } from "./views";
import { Snowflake, validate } from "../wire/validation";

export const CommandBody = Type.Object({
  channel_id: Snowflake,
  application_id: Snowflake,
  name: Type.String({ minLength: 1, maxLength: 32 }),
  type: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  // The one schema of a person's command options, every surface's (core/interaction-options.ts).
  options: Type.Optional(RawOptionsSchema),
  /** A context-menu command's target: a user's snowflake (or seed name) for type 2, a message's for type 3. */
  target_id: Type.Optional(Type.Union([Snowflake, Type.String({ minLength: 1, maxLength: 100 })])),
});

export const ComponentBody = Type.Object({
  channel_id: Snowflake,
  message_id: Snowflake,
  custom_id: Type.String({ minLength: 1, maxLength: 100 }),
  values: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 25 })),
});

export function harnessInteractions(p: HarnessContext): Route<HarnessContext>[] {
  const f = p.flakes;
  const person = (name: string) => {
    const u = p.core.users.byUsername(name) ?? p.core.users.get(f.uuid(name) ?? "");
    if (!u || u.kind !== "person") throw DomainError.notFound("user");
    return u;
  };
  const known = (flake: string | number, what: string) => {
    const id = f.uuid(String(flake));
    if (!id) throw DomainError.notFound(what);
    return id;
  };
  const delivery = { live: (botUserId: string) => p.gateway.hasLiveSession(botUserId) };
  /** A target by snowflake, or a person (or bot) by seed name. */
  const target = (ref: string) => f.uuid(ref) ?? p.core.users.byUsername(ref)?.id ?? p.core.users.botNamed(ref)?.id ?? null;

  const click = (userId: string, b: Static<typeof ComponentBody>) =>
    p.core.interactions.clickComponent(
      {
        userId,
        channelId: known(b.channel_id, "channel"),
        messageId: known(b.message_id, "message"),
        customId: b.custom_id,
        values: b.values,
      },
      delivery,
    );
  const run = (userId: string, b: Static<typeof CommandBody>) =>
    p.core.interactions.runCommand(
      {
        userId,
        channelId: known(b.channel_id, "channel"),
        applicationId: known(b.application_id, "application"),
        name: b.name,
        type: b.type,
        options: b.options as RawOption[] | undefined,
        resolveId: (raw) => f.uuid(raw),
        targetId: b.target_id === undefined ? undefined : target(String(b.target_id)),
      },
      delivery,
    );

  return [
    route({
      method: "POST",
      path: "/users/{user}/interactions",
      caller: "harness",
      summary: "Run a slash command or click a component as a person",
      // Which of the two it is, the body says (a custom_id: a click); each is checked against its own schema.
      body: Type.Union([CommandBody, ComponentBody]),
      handler: ({ params, json }) => {
        const me = person(params.user);
        const raw = json();
        const { interaction, delivered } =
          raw && typeof raw === "object" && "custom_id" in raw
            ? click(me.id, validate(ComponentBody, raw))
            : run(me.id, validate(CommandBody, raw));
        return { id: f.of(interaction.id), delivered };
      },
    }),
    route({
      method: "GET",
      path: "/interactions/{id}",
      caller: "harness",
      summary: "What became of an interaction",
      handler: ({ params }) => {
        const row = p.core.interactions.get(f.uuid(params.id) ?? "");
        if (!row) throw DomainError.notFound("interaction");
        const { response, followups } = p.core.interactionResponses.producedMessages(row);
        const full = (m: NonNullable<typeof response>) => harnessMessage(p, m, row.user_id);
        return { state: p.core.interactions.state(row), response: response ? full(response) : null, followups: followups.map(full) };
      },
    }),
  ];
}
