/**
 * The media settings (files, images, avatars and emoji; docs/operations.md "Files"):
 * their flags, defaults and bounds, read once with the rest of the configuration
 * (index.ts adds the flags to `parley serve`'s).
 */
import { join, resolve } from "node:path";
import { ConfigError, type RawFlags } from "./errors";

/**
 * Where files' bytes live (`--media-dir`, PARLEY_MEDIA_DIR): by default `media/` beside
 * the database in the data directory. Several nodes on one Postgres database point it at
 * one directory they all mount (NFS or the like; docs/scaling.md): the store writes to a
 * temporary name there and renames, so no node ever sees part of a file.
 */
export const MEDIA_DIR_FLAG = {
  name: "media-dir",
  env: "PARLEY_MEDIA_DIR",
  kind: "string" as const,
  help: "directory for files' bytes, shared by every node of a cluster (default: media/ in --data)",
};

/** The media directory given (made absolute), or null: beside the database. */
export function mediaDirOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (raw === ":memory:" || !raw.trim()) throw new ConfigError(`--media-dir must name a directory, not '${raw}'`);
  return resolve(raw);
}

/** Where the bytes are for a config: its --media-dir, else `media/` beside the database; null for an in-memory one (a temporary directory). */
export function mediaRoot(c: { mediaDir: string | null; dbPath: string }): string | null {
  if (c.mediaDir) return c.mediaDir;
  return c.dbPath === ":memory:" ? null : join(resolve(c.dbPath, ".."), "media");
}

/**
 * Limits on files, read once like every setting (the core's MediaLimits has the same
 * fields). The reference's values where it has one: 10 MiB a file (its default tier),
 * 10 files a message, 256 KiB an emoji, links valid 24 hours; Parley's own otherwise.
 */
export interface MediaConfig {
  maxFileBytes: number;
  filesPerMessage: number;
  /** A person's attachments and pending uploads in all; 0: no limit. */
  perPersonBytes: number;
  emojiBytes: number;
  avatarBytes: number;
  previewPixels: number;
  urlTtlMs: number;
  graceMs: number;
}

const MIB = 1024 * 1024;
const HOUR_MS = 3600_000;

/** Each media flag: its default, bounds, and the unit its value is given in (bytes, a count, pixels, hours). */
export const MEDIA_FLAGS: {
  key: keyof MediaConfig;
  name: string;
  env: string;
  def: number;
  min: number;
  max: number;
  unit: number;
  help: string;
}[] = [
  {
    key: "maxFileBytes",
    name: "media-max-file-bytes",
    env: "PARLEY_MEDIA_MAX_FILE_BYTES",
    def: 10 * MIB,
    min: 1024,
    max: 1024 * MIB,
    unit: 1,
    help: "largest file a person may attach (default 10485760)",
  },
  {
    key: "filesPerMessage",
    name: "media-files-per-message",
    env: "PARLEY_MEDIA_FILES_PER_MESSAGE",
    def: 10,
    min: 1,
    max: 50,
    unit: 1,
    help: "files a message may carry (default 10)",
  },
  {
    key: "perPersonBytes",
    name: "media-per-person-bytes",
    env: "PARLEY_MEDIA_PER_PERSON_BYTES",
    def: 2048 * MIB,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    unit: 1,
    help: "what one person's files may hold in all, 0 for no limit (default 2147483648)",
  },
  {
    key: "emojiBytes",
    name: "media-emoji-bytes",
    env: "PARLEY_MEDIA_EMOJI_BYTES",
    def: 256 * 1024,
    min: 1024,
    max: 16 * MIB,
    unit: 1,
    help: "largest custom emoji image (default 262144)",
  },
  {
    key: "avatarBytes",
    name: "media-avatar-bytes",
    env: "PARLEY_MEDIA_AVATAR_BYTES",
    def: 8 * MIB,
    min: 1024,
    max: 64 * MIB,
    unit: 1,
    help: "largest avatar or server icon (default 8388608)",
  },
  {
    key: "previewPixels",
    name: "media-preview-pixels",
    env: "PARLEY_MEDIA_PREVIEW_PIXELS",
    def: 40_000_000,
    min: 1,
    max: 1_000_000_000,
    unit: 1,
    help: "images with more pixels are downloads, not previews (default 40000000)",
  },
  {
    key: "urlTtlMs",
    name: "media-url-hours",
    env: "PARLEY_MEDIA_URL_HOURS",
    def: 24,
    min: 1,
    max: 24 * 365,
    unit: HOUR_MS,
    help: "hours a signed attachment link works (default 24)",
  },
  {
    key: "graceMs",
    name: "media-grace-hours",
    env: "PARLEY_MEDIA_GRACE_HOURS",
    def: 24,
    min: 1,
    max: 24 * 365,
    unit: HOUR_MS,
    help: "hours unreferenced files are kept before they are removed (default 24)",
  },
];

/** The media settings from flags (winning) and environment, each checked against its bounds. */
export function mediaConfigOf(flags: RawFlags, env: Record<string, string | undefined>): MediaConfig {
  const out = {} as MediaConfig;
  for (const f of MEDIA_FLAGS) {
    const given = flags[f.name] ?? (env[f.env] || undefined);
    const raw = given === undefined ? String(f.def) : String(given);
    if (!/^\d+$/.test(raw) || +raw < f.min || +raw > f.max)
      throw new ConfigError(`--${f.name} must be a whole number from ${f.min} to ${f.max}, not '${raw}'`);
    out[f.key] = +raw * f.unit;
  }
  return out;
}
