/**
 * Stored shapes the core reads and writes where they differ from the models surfaces are
 * given (core/models.ts): the columns that hold a hash or a sealed secret, and a command's
 * body as stored JSON. Private to the core: core/index.ts exports none of these, and
 * only the queries that check a credential select those columns (the column lists
 * below are what every other read selects).
 */
import type { Application, Device, Interaction, Session, User, Webhook } from "./models";

export interface UserRow extends User {
  password_hash: string | null;
}

export interface ApplicationRow extends Application {
  /** The SHA-256 of the current token's secret; null when there is no token (version 0). */
  token_hash: string | null;
}

export interface SessionRow extends Session {
  token_hash: string;
}

export interface WebhookRow extends Webhook {
  token_hash: string;
  /** The token sealed under the server key; null for webhooks made before tokens were kept. */
  token_sealed: string | null;
  /** Sealed, as the token; never shown. */
  hmac_secret: string | null;
  v0_secret: string | null;
}

export interface InteractionRow extends Interaction {
  token_hash: string;
}

export interface DeviceRow extends Device {
  /** The SHA-256 of the token of the sign-in session holding the device; null for backups and the harness's. */
  session_hash: string | null;
}

/** A command as stored: its body is JSON text (the model, `Command`, holds it parsed). */
export interface CommandRow {
  id: string;
  application_id: string;
  guild_id: string | null;
  name: string;
  type: number;
  body: string;
  version: number;
  created_at: number;
}

const list =
  (names: string[]) =>
  (alias = "") =>
    names.map((n) => (alias ? `${alias}.${n}` : n)).join(", ");

/** The columns of each model, for `SELECT ${USER_COLUMNS()} FROM users` (or `USER_COLUMNS("u")` in a join). */
export const USER_COLUMNS = list([
  "id",
  "kind",
  "username",
  "global_name",
  "avatar",
  "is_admin",
  "locale",
  "presence",
  "created_at",
  "deleted_at",
  "disabled_at",
]);
export const APPLICATION_COLUMNS = list([
  "id",
  "owner_id",
  "bot_user_id",
  "name",
  "description",
  "intents",
  "privileged_requested",
  "privileged_approved",
  "privileged_denied",
  "public_key",
  "interactions_endpoint_url",
  "token_version",
  "token_intents",
  "created_at",
  "disabled_at",
]);
export const SESSION_COLUMNS = list(["id", "user_id", "label", "created_at", "last_used_at"]);
export const WEBHOOK_COLUMNS = list(["id", "guild_id", "channel_id", "creator_id", "application_id", "name", "avatar", "created_at"]);
export const INTERACTION_COLUMNS = list([
  "id",
  "application_id",
  "type",
  "user_id",
  "guild_id",
  "channel_id",
  "message_id",
  "command_id",
  "data",
  "state",
  "ephemeral",
  "response_message_id",
  "created_at",
  "expires_at",
]);
export const DEVICE_COLUMNS = list(["id", "user_id", "name", "x25519", "p256", "created_at", "removed_at", "backup", "last_used_at"]);

/** A row without its secret columns: what a model built from a row just written holds. */
export function modelOf<M extends object, R extends M>(row: R, columns: (alias?: string) => string): M {
  const out: Record<string, unknown> = {};
  for (const k of columns().split(", ")) out[k] = (row as Record<string, unknown>)[k];
  return out as M;
}
