/**
 * The people's API JSON the client reads (docs/people-api.md): the contract's types
 * (src/contract), imported as types only, so no schema code reaches the bundle. Ids are
 * internal UUIDs.
 */
export type {
  User,
  Me,
  Role,
  Channel,
  Guild,
  Member,
  Reaction,
  Message,
  Embed,
  Component,
  CommandOption,
  Command,
  ReadState,
  Attachment,
  Upload,
  CustomEmoji,
} from "../contract";
export type { Device as DeviceJson } from "../contract";

/** Message flags the client acts on. */
export const FLAG_LOADING = 1 << 7;
