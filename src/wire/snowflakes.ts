/**
 * The snowflake boundary (spec 2.1). The only place where snowflakes exist. A snowflake
 * is minted the first time an object crosses the bot API and is stored, so it is stable
 * forever (across restarts, too). Its bits derive from the object's UUIDv7: timestamp
 * (ms since 2025-01-01) << 22 | the UUID's per-millisecond counter << 10 | a collision
 * counter, so snowflake order is creation order and before/after pagination works.
 *
 * A message that holds its position (migration 023: the same 60 bits, unique among
 * messages) is not stored: its number is its position << 10, the number its first claim
 * would have stored, read back through the position. The store keeps a position and a
 * stored number from ever naming two things; a message without a position (older, or
 * another held it) is stored as before.
 */
import { uuidBound, uuidTime } from "../core";
import type { MediaLinks } from "./media";
import type { FileLinks } from "./files";

/** Where minted snowflakes are kept (core/idmap.ts): the table is the truth, the maps here a cache. */
export interface SnowflakeStore {
  numberOf(uuid: string): bigint | null;
  idOf(n: bigint): string | null;
  claim(uuid: string, n: bigint): boolean;
  /** The stored number of an id, and the position of the message it names (each null when none). */
  lookup(uuid: string): { number: bigint | null; position: number | null };
  /** The message holding a position, or null. */
  messageAt(position: number): string | null;
}

export const EPOCH = 1735689600000;
/** Smallest timestamp part that still gives 17 digits (10^16 / 2^22, rounded up). */
const MIN_TS = 2_384_185_792n;
/** The smallest position whose number is derived: below it, the timestamp would be raised to MIN_TS. */
const MIN_DERIVED_POSITION = Number(MIN_TS) * 4096;

/** The position a number would be derived from, or null when it cannot be one. */
function positionIn(n: bigint): number | null {
  if ((n & 1023n) !== 0n) return null;
  const position = Number(n >> 10n);
  return position >= MIN_DERIVED_POSITION ? position : null;
}

/** The first number an id may be stored as: its millisecond (17 digits at least) and counter, no collision yet. */
function firstNumber(uuid: string): bigint {
  const { ms, counter } = uuidTime(uuid);
  let ts = BigInt(ms - EPOCH);
  if (ts < MIN_TS) ts = MIN_TS;
  return (ts << 22n) | (BigInt(counter) << 10n);
}

/** A message's number from its position, or null when it has none or one too early to derive from. */
export function derivedNumber(position: number | null | undefined): bigint | null {
  return position != null && position >= MIN_DERIVED_POSITION ? BigInt(position) << 10n : null;
}
/**
 * The one spelling of a snowflake that is an id: decimal, no leading zero, 17 to 20
 * digits (and below 2^63, see isSnowflake). "0<id>" and "+<id>" name nothing: were they
 * ids, the spelling a request used would be cached and then served to everyone.
 */
export const SNOWFLAKE = /^[1-9][0-9]{16,19}$/;
const MAX_SNOWFLAKE = 1n << 63n;

/** Whether `s` is a snowflake spelled the one way an id is spelled. */
export function isSnowflake(s: string): boolean {
  return SNOWFLAKE.test(s) && (s.length < 19 || BigInt(s) < MAX_SNOWFLAKE);
}
/**
 * Ids looked up again, kept per generation (two generations at most): room for the
 * members of a server of 10,000 (a GUILD_CREATE or member list looks each one up; what
 * is found in the old generation moves back) without a query per member. Each kept id
 * costs about a third of a kilobyte.
 */
const GENERATION = 10_000;
/**
 * Ids minted here, kept apart and far fewer: a posted message's id is asked for a few
 * times within moments (its answer, its dispatch), then seldom. A steady stream of posts
 * would otherwise fill the cache above with ids nobody asks for again, megabytes held
 * after the load is over; an id asked for later comes back from the table into the cache.
 */
const MINTED_GENERATION = 1_000;

/** A bounded map both ways (uuid <-> snowflake) in two generations: when the young one is full it becomes the old one. */
class TwoGenerations {
  private toFlake = new Map<string, string>();
  private toUuid = new Map<string, string>();
  private oldToFlake = new Map<string, string>();
  private oldToUuid = new Map<string, string>();

  constructor(private readonly size: number) {}

  /** The snowflake of a uuid, if kept; what is found in the old generation moves back. */
  flake(uuid: string): string | undefined {
    const young = this.toFlake.get(uuid);
    if (young !== undefined) return young;
    const old = this.oldToFlake.get(uuid);
    if (old !== undefined) this.set(uuid, old);
    return old;
  }

  uuid(flake: string): string | undefined {
    const young = this.toUuid.get(flake);
    if (young !== undefined) return young;
    const old = this.oldToUuid.get(flake);
    if (old !== undefined) this.set(old, flake);
    return old;
  }

  set(uuid: string, flake: string): string {
    if (this.toFlake.size >= this.size) {
      this.oldToFlake = this.toFlake;
      this.oldToUuid = this.toUuid;
      this.toFlake = new Map();
      this.toUuid = new Map();
    }
    this.toFlake.set(uuid, flake);
    this.toUuid.set(flake, uuid);
    return flake;
  }

  clear(): void {
    this.toFlake.clear();
    this.toUuid.clear();
    this.oldToFlake.clear();
    this.oldToUuid.clear();
  }
}

/**
 * What serializers need of the boundary: an internal id's snowflake, the image proxy's
 * links for embeds' pictures when the operator turned it on (media.ts), and the signed
 * links of attachments (files.ts).
 */
export type Ids = Pick<Snowflakes, "of" | "ofNullable"> & { readonly media?: MediaLinks | null; readonly files?: FileLinks | null };

export class Snowflakes {
  /**
   * Recently crossed ids, both ways. The table is the truth; the maps save a query on
   * hot paths (channels, users, the bot) without keeping every message ever posted in
   * memory.
   */
  private readonly kept = new TwoGenerations(GENERATION);
  private readonly minted = new TwoGenerations(MINTED_GENERATION);

  constructor(
    private readonly store: SnowflakeStore,
    /** The image proxy's links, carried here because every serializer already holds the boundary. */
    readonly media: MediaLinks | null = null,
    /** The `snowflakeCache` fast path (config/fast-paths.ts): false, every id is looked up in the table. */
    private readonly cache = true,
    /** Attachments' signed links (files.ts), carried here for the same reason as `media`. */
    readonly files: FileLinks | null = null,
  ) {}

  /** The snowflake of an internal id, minted and stored on first use. */
  of(uuid: string): string {
    if (this.cache) {
      const cached = this.kept.flake(uuid) ?? this.minted.flake(uuid);
      if (cached !== undefined) return cached;
    }
    const found = this.store.lookup(uuid);
    const known = found.number ?? derivedNumber(found.position);
    if (known !== null) return this.cache ? this.kept.set(uuid, known.toString()) : known.toString();
    return this.claim(uuid);
  }

  /** Store a number for an id: the first free one of its millisecond and counter. */
  private claim(uuid: string): string {
    const base = firstNumber(uuid);
    for (let extra = 0n; extra < 1024n; extra++) {
      const flake = base | extra;
      if (this.store.claim(uuid, flake)) return this.cache ? this.minted.set(uuid, flake.toString()) : flake.toString();
      // Refused: the number is another id's, or this id was paired meanwhile by another
      // process on the database (two nodes serializing one new message at once). The
      // second is the answer; only the first moves on to the next number.
      const paired = this.store.numberOf(uuid);
      if (paired !== null) return this.cache ? this.kept.set(uuid, paired.toString()) : paired.toString();
    }
    throw new Error("snowflake space exhausted for one millisecond");
  }

  /**
   * of() for an id the caller has just created in the open write (a message posted, with
   * its position): a message holding its position has its derived number, nothing
   * stored; else nobody can have paired it yet, so its number is claimed first, without
   * the look-up that would find none. The answer is of()'s in every case: a claim that
   * fails (the id or the number taken) falls back to of(). Off with the `snowflakeCache`
   * switch.
   */
  ofNew(uuid: string, position: number | null = null): string {
    if (!this.cache) return this.of(uuid);
    const derived = derivedNumber(position);
    if (derived !== null) return this.minted.set(uuid, derived.toString());
    const flake = firstNumber(uuid);
    return this.store.claim(uuid, flake) ? this.minted.set(uuid, flake.toString()) : this.of(uuid);
  }

  ofNullable(uuid: string | null | undefined): string | null {
    return uuid ? this.of(uuid) : null;
  }

  /**
   * The internal id behind a snowflake, or null if it never crossed the boundary or is
   * not spelled canonically. Only the canonical spelling is ever cached: the cache
   * answers `of()` for everyone, so nothing a request spelled may reach it.
   */
  uuid(flake: string): string | null {
    if (!isSnowflake(flake)) return null;
    if (this.cache) {
      const cached = this.kept.uuid(flake) ?? this.minted.uuid(flake);
      if (cached !== undefined) return cached;
    }
    const n = BigInt(flake);
    const position = positionIn(n);
    const id = (position !== null && this.store.messageAt(position)) || this.store.idOf(n);
    if (!id) return null;
    if (this.cache) this.kept.set(id, flake);
    return id;
  }

  /**
   * A UUID to compare against for pagination: the object's own id if known, otherwise
   * the first or last possible id of the snowflake's millisecond.
   */
  bound(flake: string, upper: boolean): string {
    let big = 0n;
    if (/^[0-9]{1,20}$/.test(flake)) big = BigInt(flake);
    // A bound is a position, not an id: "0123" is where 123 is; the id is looked up by its own spelling.
    const known = this.uuid(big.toString());
    if (known) return known;
    const ms = Number(big >> 22n) + EPOCH;
    return uuidBound(ms, upper);
  }

  /** Milliseconds since the Unix epoch encoded in a snowflake. */
  static timestamp(flake: string): number {
    return Number(BigInt(flake) >> 22n) + EPOCH;
  }

  /** Drop the in-memory caches (after a world reset). */
  clearCache(): void {
    this.kept.clear();
    this.minted.clear();
  }
}
