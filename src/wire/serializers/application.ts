import { INTENTS, type Application, type User } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";

/**
 * Application flags for the gateway intents the application holds (reference flags:
 * GATEWAY_PRESENCE 1<<12, GATEWAY_GUILD_MEMBERS 1<<14, GATEWAY_MESSAGE_CONTENT 1<<18).
 */
export function applicationFlags(a: Application): number {
  let f = 0;
  if (a.privileged_approved & INTENTS.GUILD_PRESENCES) f |= 1 << 12;
  if (a.privileged_approved & INTENTS.GUILD_MEMBERS) f |= 1 << 14;
  if (a.privileged_approved & INTENTS.MESSAGE_CONTENT) f |= 1 << 18;
  return f;
}

export function applicationJson(f: Ids, a: Application, bot: User, owner: User | null) {
  const flags = applicationFlags(a);
  return {
    id: f.of(a.id),
    name: a.name,
    // An application's icon is its bot's avatar (issue 31).
    icon: bot.avatar,
    description: a.description,
    summary: "",
    type: null,
    bot_public: false,
    bot_require_code_grant: false,
    bot: userJson(f, bot),
    owner: owner ? userJson(f, owner) : undefined,
    verify_key: a.public_key,
    team: null,
    flags,
    flags_new: String(flags),
    interactions_endpoint_url: a.interactions_endpoint_url,
    role_connections_verification_url: null,
    redirect_uris: [],
    tags: [],
    approximate_guild_count: 0,
    rpc_origins: [],
  };
}
