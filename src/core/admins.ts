/**
 * Who administers this instance: people with `is_admin` (made so by another
 * administrator, `parley user create --admin` or `parley user admin`), and the operator
 * of the server, who runs `parley` commands on its data directory and is the
 * administrator by definition. The instance's acts (core/instance.ts, accounts.ts,
 * password-resets.ts, servers.ts, stats.ts) take the actor as `string | null`: a
 * person's id, or OPERATOR. The check is here, once, for every surface that offers them.
 */
import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";

/** The operator of this server (a `parley` command), who holds every administrator's right. */
export const OPERATOR = null;
export type Actor = string | null;

/** 403 unless the actor is the operator or a current administrator (a person, not disabled, not deleted). */
export function requireAdministrator(d: CoreDeps, actorId: Actor): void {
  if (actorId === OPERATOR) return;
  if (!isAdministrator(d, actorId)) throw DomainError.forbidden("Only an administrator of this server can do this");
}

export function isAdministrator(d: CoreDeps, userId: string): boolean {
  const u = d.store.db.query("SELECT kind, is_admin, deleted_at, disabled_at FROM users WHERE id = ?").get(userId) as {
    kind: string;
    is_admin: number;
    deleted_at: number | null;
    disabled_at: number | null;
  } | null;
  return !!u && u.kind === "person" && u.is_admin === 1 && u.deleted_at === null && u.disabled_at === null;
}

/** How many administrators could act now (people, enabled, not deleted). */
export function administratorCount(d: CoreDeps): number {
  return (
    d.store.db
      .query("SELECT count(*) AS n FROM users WHERE kind = 'person' AND is_admin = 1 AND deleted_at IS NULL AND disabled_at IS NULL")
      .get() as {
      n: number;
    }
  ).n;
}
