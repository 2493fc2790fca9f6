/**
 * Deprecated: the names surfaces used for the core's shapes before core/index.ts was its
 * one face. Each is now the model of core/models.ts (no hash, no secret); the core's own
 * rows are core/rows.ts. Import models from src/core/index.ts; this file goes once no
 * surface names it.
 */
export type {
  User as UserRow,
  Application as ApplicationRow,
  Guild as GuildRow,
  Role as RoleRow,
  Member as MemberRow,
  Channel as ChannelRow,
  Overwrite as OverwriteRow,
  Message as MessageRow,
  Device as DeviceRow,
} from "./models";
export { CHANNEL_TYPES } from "./channel-types";
