/**
 * The slash commands a person may run in a channel (what the composer's `/` list
 * shows): every bot there, its server commands over its global ones, with their options.
 * `?type=2` lists the USER commands and `?type=3` the MESSAGE commands instead (what a
 * person's name and a message offer as context-menu commands).
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import * as C from "../contract";
import { type Application, type Command, type CommandOption, DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";

function optionView(o: CommandOption): C.CommandOption {
  const out: C.CommandOption = { type: o.type, name: o.name, description: o.description, required: o.required ?? false };
  if (o.choices?.length) out.choices = o.choices.map((c) => ({ name: c.name, value: c.value }));
  if (o.options?.length) out.options = o.options.map(optionView);
  if (o.channel_types?.length) out.channel_types = o.channel_types;
  for (const k of ["min_value", "max_value", "min_length", "max_length"] as const) if (o[k] !== undefined && o[k] !== null) out[k] = o[k];
  return out;
}

export function commandView(app: Application, c: Command): C.Command {
  return {
    id: c.id,
    application_id: app.id,
    application_name: app.name,
    bot_user_id: app.bot_user_id,
    name: c.name,
    description: c.body.description,
    options: c.body.options.map(optionView),
  };
}

export function commandRoutes(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "GET",
      path: "/channels/{channel_id}/commands",
      caller: "session",
      summary: "The commands one may run in a channel (global and the server's); type=2 or 3 lists user or message commands",
      answer: Type.Array(C.Command),
      handler: ({ caller: { user: me }, params, query }) => {
        const type = Number(query.get("type") ?? "1");
        if (![1, 2, 3].includes(type)) throw DomainError.invalid("type", "Must be 1, 2 or 3", "NUMBER_TYPE_COERCE");
        return p.core.interactions.available(me.id, pathId(params.channel_id, "channel"), type).map((x) => commandView(x.app, x.command));
      },
    }),
  ];
}
