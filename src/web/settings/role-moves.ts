/**
 * Where a role dropped in "Roles here" lands (drag.ts): before or after the role under the
 * pointer, highest first as the list shows them; on @everyone or the list's empty space,
 * lowest. One request says it: the role with the position of the role whose place it
 * takes, which the server reads as "above the role it met" when it moves up and "below"
 * when it moves down (core/roles.ts reorder), the others keeping their order around it.
 */
import type { Role } from "../types";
import type { DropAt } from "./drag";

export interface RoleMovePlan {
  role: Role;
  /** The position to ask for. */
  position: number;
  /** The roles but @everyone, highest first, as they will be. */
  order: Role[];
}

/** What dropping role `id` at `at` does among `roles` (highest first, @everyone left out), or null when nothing moves. */
export function planRoleDrop(roles: Role[], id: string, at: DropAt): RoleMovePlan | null {
  const from = roles.findIndex((r) => r.id === id);
  if (from < 0 || at.key === id) return null;
  const role = roles[from];
  const order = roles.filter((r) => r.id !== id);
  const on = order.findIndex((r) => r.id === at.key);
  const to = on < 0 ? order.length : on + (at.after ? 1 : 0);
  if (to === from) return null;
  order.splice(to, 0, role);
  const met = to < from ? order[to + 1] : order[to - 1];
  return { role, position: met.position, order };
}
