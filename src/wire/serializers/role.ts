import type { Role } from "../../core";
import type { Ids } from "../snowflakes";

/** Role (reference-gaps 3.3). Permissions are only ever the 13 honoured bits. */
export function roleJson(f: Ids, r: Role) {
  return {
    id: f.of(r.id),
    name: r.name,
    color: r.color,
    colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
    hoist: !!r.hoist,
    icon: r.icon,
    unicode_emoji: r.unicode_emoji,
    position: r.position,
    permissions: String(r.permissions),
    managed: false,
    mentionable: !!r.mentionable,
    flags: 0,
  };
}
