import { Type } from "@sinclair/typebox";
import type { RouteDef } from "../http";
import { ok } from "../http";
import { Snowflake } from "../../wire/validation";
import { channelOut } from "../present";
import { known } from "./ids";

export const CreateDmBody = Type.Object({ recipient_id: Snowflake });

export const dmRoutes: RouteDef[] = [
  {
    method: "POST",
    path: "/users/@me/channels",
    auth: "bot",
    handler: async (req) => {
      const { api, bot } = req;
      const body = await req.body(CreateDmBody);
      const recipient = known(api, String(body.recipient_id), "user");
      const c = api.core.dms.openAsBot(bot.botUserId, recipient);
      return ok(channelOut(api, c, bot.botUserId));
    },
  },
];
