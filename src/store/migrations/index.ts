/**
 * Forward-only, numbered migrations, applied in order at start-up (by the server and by
 * every test app). Never edit a migration that has shipped; add the next number.
 */
import { m001 } from "./001_initial";
import { m002 } from "./002_lean_message_writes";
import { m003 } from "./003_messages_without_rowid";
import { m004 } from "./004_message_mentions";
import { m005 } from "./005_webhook_tokens";
import { m006 } from "./006_read_states";
import { m007 } from "./007_devices";
import { m008 } from "./008_privileged_denials";
import { m009 } from "./009_device_sessions";
import { m010 } from "./010_credential_events";
import { m011 } from "./011_person_sessions";
import { m012 } from "./012_relayed_events";
import { m013 } from "./013_media";
import { m014 } from "./014_emojis";
import { m015 } from "./015_search_index";
import { m016 } from "./016_pins";
import { m017 } from "./017_notification_settings";
import { m018 } from "./018_instance";
import { m019 } from "./019_device_use";
import { m020 } from "./020_search_pending";
import { m021 } from "./021_presence_holds";
import { m022 } from "./022_search_mark";
import { m023 } from "./023_message_positions";
import { m024 } from "./024_dm_closed";
import { m025 } from "./025_emoji_names_shared";
import type { Database } from "bun:sqlite";

export interface Migration {
  version: number;
  sql: string;
  /** Data changes SQL alone cannot make; runs after `sql`, in the same transaction. */
  run?: (db: Database) => void;
}

export const migrations: Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
];
