/**
 * How the harness names things: people by their seed name or snowflake, bots by their
 * application's name, everything else by the snowflake the bots see.
 */
import { DomainError, type User } from "../core";
import { idString } from "../wire/validation";
import type { HarnessContext } from "./context";

export class Lookup {
  constructor(private readonly p: HarnessContext) {}

  /** A user by seed name (people first, then bot users by application name) or snowflake. */
  user(ref: string): User {
    const { core, flakes } = this.p;
    let u: User | null;
    if (/^[0-9]{17,20}$/.test(ref)) {
      const id = flakes.uuid(ref);
      u = id ? core.users.get(id) : null;
    } else u = core.users.byUsername(ref) ?? core.users.botNamed(ref);
    if (!u || u.deleted_at) throw DomainError.notFound("user");
    return u;
  }

  /** A person (the harness acts as people; bots act through the bot API). */
  person(ref: string): User {
    const u = this.user(ref);
    if (u.kind !== "person")
      throw DomainError.invalid("user", "The harness acts as people; bots act through the bot API", "BASE_TYPE_INVALID");
    return u;
  }

  /** The internal id behind a snowflake in a body; 404 (or 50035 for a reply target) when unknown. */
  internal(flake: string | number, what: string, path: string): string {
    const id = this.p.flakes.uuid(idString(flake));
    if (!id) throw what === "reference" ? DomainError.invalid(path, "Unknown message", "UNKNOWN_REFERENCE") : DomainError.notFound(what);
    return id;
  }
}
