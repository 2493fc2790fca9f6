import { Type } from "@sinclair/typebox";
import { ok, route, type BotRoute } from "../http";
import { Snowflake } from "../../wire/validation";
import { channelOut } from "../present";
import { known } from "./ids";

export const CreateDmBody = Type.Object({ recipient_id: Snowflake });

export const dmRoutes: BotRoute[] = [
  route({
    method: "POST",
    path: "/users/@me/channels",
    summary: "Open (or find) the DM channel with a user",
    caller: "bot",
    body: CreateDmBody,
    bodyAt: "first",
    handler: (req) => {
      const { ctx: api, caller: bot } = req;
      const body = req.body();
      const recipient = known(api, String(body.recipient_id), "user");
      const c = api.core.dms.openAsBot(bot.botUserId, recipient);
      return ok(channelOut(api, c, bot.botUserId));
    },
  }),
];
