import type { Store } from "../store/db";
import { statement } from "./statement";

/**
 * Storage of the boundary's id map (uuid <-> snowflake). The core knows nothing of
 * snowflakes beyond "a 64-bit number paired with an internal id": the wire layer mints
 * them (src/wire/snowflakes.ts) and keeps them here, so they are stable forever. A
 * message's number is derived from its position instead (migration 023): here is how
 * to find either.
 */
export class IdMap {
  private readonly byUuid;
  private readonly byFlake;
  private readonly insert;

  constructor(store: Store) {
    // As text: the driver reads a 64-bit integer as a float, which rounds any number past
    // 2^53 whose low bits are set (the ones a collision in one millisecond gets).
    this.byUuid = statement(store, "SELECT CAST(flake AS TEXT) AS flake FROM snowflakes WHERE uuid = ?");
    this.byFlake = statement(store, "SELECT uuid FROM snowflakes WHERE flake = ?");
    // ?3: the position the number would be derived from (migration 023), if it could be
    // one: then it is that message's, never stored for anything.
    this.insert = statement(
      store,
      "INSERT OR IGNORE INTO snowflakes (uuid, flake) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM messages WHERE position = ?3)",
    );
    // One look for an id met again: its pair, and if it is a message, its position (migration 023).
    this.both = statement(
      store,
      "SELECT (SELECT CAST(flake AS TEXT) FROM snowflakes WHERE uuid = ?1) AS flake, (SELECT position FROM messages WHERE id = ?1) AS position",
    );
    this.atPosition = statement(store, "SELECT id FROM messages WHERE position = ?");
  }

  private readonly both;
  private readonly atPosition;

  /** The number paired with an id, and the position of the message it names (each null when none). */
  lookup(uuid: string): { number: bigint | null; position: number | null } {
    const row = this.both().get(uuid) as { flake: string | null; position: number | null };
    return { number: row.flake === null ? null : BigInt(row.flake), position: row.position };
  }

  /** The message at a position, or null. */
  messageAt(position: number): string | null {
    return (this.atPosition().get(position) as { id: string } | null)?.id ?? null;
  }

  /** The number paired with an internal id, or null if none is yet. */
  numberOf(uuid: string): bigint | null {
    const row = this.byUuid().get(uuid) as { flake: string } | null;
    return row ? BigInt(row.flake) : null;
  }

  /** The internal id paired with a number, or null. */
  idOf(n: bigint): string | null {
    const row = this.byFlake().get(n) as { uuid: string } | null;
    return row ? row.uuid : null;
  }

  /**
   * Pair an id with a number unless either is taken; true when it was paired. Runs as
   * its own statement (autocommit, or inside whatever transaction is open), because a
   * number is claimed while serializing an answer, which may be outside any write.
   */
  claim(uuid: string, n: bigint): boolean {
    return this.insert().run(uuid, n, (n & 1023n) === 0n ? Number(n >> 10n) : null).changes > 0;
  }
}
