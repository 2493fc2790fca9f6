/**
 * Operator helpers shared by the CLI, the demo world and the harness: they act on the
 * core and present results with the bot API's ids and token format.
 */
import type { BotApi } from "./context";
import { formatBotToken } from "./tokens";

export function mintedToken(api: BotApi, appId: string, t: { secret: string; version: number }): string {
  const a = api.core.apps.require(appId);
  return formatBotToken(api.flakes.of(a.bot_user_id), t);
}

export function createApplicationWithToken(api: BotApi, input: { ownerId: string; name: string; description?: string; intents?: number }) {
  const { app, bot, token } = api.core.apps.create(input);
  return { app, bot, token: formatBotToken(api.flakes.of(bot.id), token) };
}

export function rotateToken(api: BotApi, appId: string): string {
  return mintedToken(api, appId, api.core.apps.rotateToken(appId));
}
