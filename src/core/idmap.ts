import type { Store } from "../store/db";
import { statement } from "./statement";

/**
 * Storage of the boundary's id map (uuid <-> snowflake). The core knows nothing of
 * snowflakes beyond "a 64-bit number paired with an internal id": the wire layer mints
 * them (src/wire/snowflakes.ts) and keeps them here, so they are stable forever.
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
    this.insert = statement(store, "INSERT OR IGNORE INTO snowflakes (uuid, flake) VALUES (?, ?)");
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
    return this.insert().run(uuid, n).changes > 0;
  }
}
