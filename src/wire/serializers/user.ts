/**
 * User objects. Spec 2.7: `bot` is true on GET /users/@me and in READY, but false on
 * message authors, mentions and public profiles, even for the bot's own messages.
 * Elsewhere (members, bans, reactions) it tells the truth.
 */
import type { User } from "../../core";
import type { Ids } from "../snowflakes";

export type BotFlag = "truth" | "false";

export function userJson(f: Ids, u: User, bot: BotFlag = "truth") {
  return {
    id: f.of(u.id),
    username: u.username,
    global_name: u.global_name,
    discriminator: "0",
    avatar: u.avatar,
    bot: bot === "truth" ? u.kind === "bot" : false,
    system: false,
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
  };
}

/** GET /users/@me for a bot, and READY's user. */
export function selfUserJson(f: Ids, u: User) {
  return { ...userJson(f, u), bot: true, verified: true, mfa_enabled: false, locale: u.locale, email: null };
}
