/**
 * Bot tokens look like the reference platform's: three dot-separated parts, the first
 * the base64 of the bot user's snowflake (libraries read the id from it), the second
 * the token version, the third 32 random bytes. Only the secret's SHA-256 is stored
 * (core/applications.ts); the first two parts make lookup one indexed read.
 */
import type { MintedSecret } from "../core";
import type { Snowflakes } from "./snowflakes";

export function formatBotToken(botUserFlake: string, t: MintedSecret): string {
  const id = Buffer.from(botUserFlake).toString("base64").replace(/=+$/, "");
  const ver = Buffer.from(String(t.version)).toString("base64url");
  return `${id}.${ver}.${t.secret}`;
}

export interface ParsedBotToken {
  botUserId: string; // internal id
  version: number;
  secret: string;
}

/** A bot token (without "Bot "), parsed; null when it is not one. */
export function parseBotToken(token: string, flakes: Pick<Snowflakes, "uuid">): ParsedBotToken | null {
  return named(decodeToken(token), flakes);
}

function named(raw: RawToken | null, flakes: Pick<Snowflakes, "uuid">): ParsedBotToken | null {
  const botUserId = raw ? flakes.uuid(raw.flake) : null;
  return botUserId ? { botUserId, version: raw!.version, secret: raw!.secret } : null;
}

interface RawToken {
  flake: string;
  version: number;
  secret: string;
}

/** Longer keys are decoded every time: real tokens are about 70 characters, and 10,000 kept headers of 16 KiB of garbage would be 160 MiB. */
const MAX_KEPT_KEY = 256;
const MAX_KEPT = 10_000;

/**
 * The bot API's reader of `Authorization: Bot <token>` headers, with a memo of what each
 * whole header decodes to: every request presents its bot's token again, and decoding it
 * (three patterns, two base64 decodings) costs more than a map lookup. A pure function's
 * memo, bounded; the secret is checked against the stored digest on every request
 * whatever this says. `memo: false` (FastPaths.tokenMemo) decodes every time.
 */
export class BotAuthorization {
  private readonly seen = new Map<string, RawToken | null>();

  constructor(
    private readonly flakes: Pick<Snowflakes, "uuid">,
    private readonly memo: boolean,
  ) {}

  /** The token of a header, parsed; null when it is not one. */
  read(header: string): ParsedBotToken | null {
    let raw = this.memo ? this.seen.get(header) : undefined;
    if (raw === undefined) {
      const m = /^Bot\s+(\S+)$/i.exec(header.trim());
      raw = m ? decodeToken(m[1]) : null;
      if (this.memo && header.length <= MAX_KEPT_KEY) {
        if (this.seen.size >= MAX_KEPT) this.seen.clear();
        this.seen.set(header, raw);
      }
    }
    return named(raw, this.flakes);
  }
}

function decodeToken(token: string): RawToken | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [a, b, secret] = parts;
  if (!/^[A-Za-z0-9+/]{1,40}$/.test(a) || !/^[A-Za-z0-9_-]{1,16}$/.test(b) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const flake = Buffer.from(a, "base64").toString("utf8");
  const version = Number(Buffer.from(b, "base64url").toString("utf8"));
  if (!Number.isSafeInteger(version) || version < 1) return null;
  return { flake, version, secret };
}

/** The parts of the applications service that mint tokens (core/applications.ts). */
export interface TokenMinter {
  require(id: string): { bot_user_id: string };
  create(input: { ownerId: string; name: string; description?: string; intents?: number }): {
    app: { id: string; name: string; bot_user_id: string; public_key: string };
    bot: { id: string };
    token: MintedSecret;
  };
  rotateToken(appId: string): MintedSecret;
}

/**
 * Create an application and format its first token as bots present it. Shared by every
 * door an application is created through (portal, CLI, seed).
 */
export function createApplicationWithToken(
  apps: TokenMinter,
  flakes: Pick<Snowflakes, "of">,
  input: { ownerId: string; name: string; description?: string; intents?: number },
) {
  const { app, bot, token } = apps.create(input);
  return { app, bot, token: formatBotToken(flakes.of(bot.id), token) };
}

/** Rotate an application's token; the old one stops working at once (spec 3.3). */
export function rotateToken(apps: TokenMinter, flakes: Pick<Snowflakes, "of">, appId: string): string {
  const t = apps.rotateToken(appId);
  return formatBotToken(flakes.of(apps.require(appId).bot_user_id), t);
}
