/**
 * The server's roles, highest first, for people with Manage Roles: per role "Edit <role>"
 * (name, colour, "Display separately", "Allow anyone to @mention" and its permissions;
 * @everyone only its permissions, as it cannot be renamed), "Delete <role>" (asks once,
 * says who loses it) and "Move <role> up" / "Move <role> down", each disabled beyond one's
 * own rank with the reason (the owner is above every role; reference-gaps 1.3; rank.ts).
 * With a pointer, a role's row is also dragged to its place (role-moves.ts: one request a
 * drop); the new order shows at once and goes back should the server refuse. A drop above
 * one's own highest role is refused with the buttons' reason, and nothing is asked.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { readableRoleColor } from "../colors";
import { permissionLabels } from "../names";
import { guilds, members } from "../state";
import type { Guild, Role } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";
import { useKeptFocus, useRequest } from "./common";
import { permissionBitsOf, permissionNames, RolePermissions } from "./RolePermissions";
import { grantable, myRank, ROLE_ABOVE } from "./rank";
import { useDragRows, type DropAt } from "./drag";
import { planRoleDrop } from "./role-moves";

const hex = (c: number) => `#${c.toString(16).padStart(6, "0")}`;

const BEYOND = "Beyond your own rank: only roles below your highest role move.";

// Longer than 80 lines because each role row carries its edit, delete and move controls, laid out one attribute a line.
export function RoleList({ guild }: { guild: Guild }) {
  // A dropped role's new order (ids, highest first), shown while the server is asked; gone when it answers.
  const [preview, setPreview] = useState<string[] | null>(null);
  const placed = (r: Role) => (preview && !r.everyone ? preview.length - preview.indexOf(r.id) : r.position);
  const roles = [...guild.roles].sort((a, b) => placed(b) - placed(a));
  const movable = roles.filter((r) => !r.everyone);
  const rank = myRank(guild);
  const req = useRequest();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  // A drop refused here, before any request: the buttons' reason.
  const [refused, setRefused] = useState("");
  const keep = useKeptFocus();
  const drag = useDragRows(dropped);
  async function dropped(id: string, at: DropAt) {
    const plan = req.busy ? null : planRoleDrop(movable, id, at);
    if (!plan) return;
    if (plan.position >= rank) {
      setRefused(BEYOND);
      return;
    }
    setRefused("");
    setPreview(plan.order.map((r) => r.id));
    const all = await req.run(
      () => api<Role[]>("PATCH", `/guilds/${guild.id}/roles`, [{ id: plan.role.id, position: plan.position }]),
      () => `${plan.role.name} moved.`,
    );
    if (all) guilds.value = guilds.value.map((g) => (g.id === guild.id ? { ...g, roles: all } : g));
    setPreview(null);
  }
  const holders = (r: Role) => (members.value[guild.id] ?? []).filter((m) => m.roles.includes(r.id)).length;
  async function move(r: Role, up: boolean) {
    // Not disabled while a request runs: a disabled button loses focus (useKeptFocus).
    if (req.busy) return;
    setRefused("");
    keep(`${r.id}:${up ? "up" : "down"}`);
    const i = movable.indexOf(r);
    const other = movable[up ? i - 1 : i + 1];
    if (!other) return;
    const body = [
      { id: r.id, position: other.position },
      { id: other.id, position: r.position },
    ];
    await req.run(
      () => api("PATCH", `/guilds/${guild.id}/roles`, body),
      () => `${r.name} moved ${up ? "up" : "down"}.`,
    );
  }
  async function remove(r: Role) {
    if (
      await req.run(
        () => api("DELETE", `/guilds/${guild.id}/roles/${r.id}`),
        () => `Role ${r.name} deleted.`,
      )
    )
      setDeleting(null);
  }
  return (
    <section class="card" aria-labelledby="role-list-title">
      <h3 id="role-list-title">Roles here</h3>
      <p role="status" class="hint">
        {req.status}
      </p>
      {!deleting && <ErrorLine error={refused || (req.error ? errorText(req.error) : undefined)} />}
      <ul class="rows" aria-label="Roles" {...drag.zone("end", "end")}>
        {roles.map((r) => {
          const i = movable.indexOf(r);
          const mayUp = !r.everyone && i > 0 && movable[i - 1].position < rank && r.position < rank;
          const mayDown = !r.everyone && i >= 0 && i < movable.length - 1 && r.position < rank;
          const mine = r.position < rank;
          // Not while its editor is open: text in a draggable row cannot be selected with the pointer.
          const mayDrag = mine && !r.everyone && editing !== r.id;
          return (
            <li key={r.id} class={drag.mark(r.id)} {...drag.source(r.id, mayDrag)} {...drag.zone(r.id)}>
              <span class="row-name" style={r.color ? { color: readableRoleColor(r.color) } : undefined}>
                <b>{r.name}</b> <span class="muted">{permissionLabels(r.permissions).join(", ") || "no permissions"}</span>
              </span>
              {!r.everyone && (
                <>
                  <button
                    type="button"
                    data-keep={`${r.id}:up`}
                    disabled={!mayUp}
                    title={mayUp ? undefined : BEYOND}
                    onClick={() => move(r, true)}
                  >
                    Move {r.name} up
                  </button>
                  <button
                    type="button"
                    data-keep={`${r.id}:down`}
                    disabled={!mayDown}
                    title={mayDown ? undefined : BEYOND}
                    onClick={() => move(r, false)}
                  >
                    Move {r.name} down
                  </button>
                </>
              )}
              <button
                type="button"
                aria-expanded={editing === r.id}
                data-keep={`${r.id}:edit`}
                disabled={!mine}
                title={mine ? undefined : ROLE_ABOVE}
                onClick={() => setEditing(editing === r.id ? null : r.id)}
              >
                Edit {r.name}
              </button>
              {!r.everyone && (
                <button type="button" class="danger" disabled={!mine} title={mine ? undefined : ROLE_ABOVE} onClick={() => setDeleting(r)}>
                  Delete {r.name}
                </button>
              )}
              {editing === r.id && mine && (
                <RoleEditor
                  guild={guild}
                  role={r}
                  onDone={() => {
                    keep(`${r.id}:edit`);
                    setEditing(null);
                  }}
                />
              )}
            </li>
          );
        })}
      </ul>
      {deleting && (
        <Confirm
          title={`Delete ${deleting.name}?`}
          confirm="Delete role"
          busy={req.busy}
          error={req.error ? errorText(req.error) : undefined}
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{`${holders(deleting) === 1 ? "1 member loses it" : `${holders(deleting)} members lose it`}, with the permissions it gives.`}</p>
        </Confirm>
      )}
    </section>
  );
}

/** One role's editor; @everyone shows only its permissions, as it cannot be renamed. */
function RoleEditor({ guild, role, onDone }: { guild: Guild; role: Role; onDone(): void }) {
  const [name, setName] = useState(role.name);
  const [color, setColor] = useState(hex(role.color));
  const [hoist, setHoist] = useState(role.hoist);
  const [mentionable, setMentionable] = useState(role.mentionable);
  const [had] = useState(() => permissionNames(role.permissions));
  const [perms, setPerms] = useState(had);
  const req = useRequest();
  async function save(e: Event) {
    e.preventDefault();
    // Permissions go only when they differ from the role as the page knows it now, so a
    // save of the name alone does not undo someone else's change to what the role allows.
    const bits = permissionBitsOf(perms, role.permissions);
    const permissions = bits === role.permissions ? {} : { permissions: bits };
    const fields = role.everyone ? {} : { name: name.trim(), color: parseInt(color.slice(1), 16), hoist, mentionable };
    await req.run(
      () => api("PATCH", `/guilds/${guild.id}/roles/${role.id}`, { ...fields, ...permissions }),
      () => `${role.everyone ? role.name : name.trim()} saved.`,
    );
  }
  return (
    <form class="inline-form role-editor" onSubmit={save} noValidate aria-label={`Edit ${role.name}`}>
      {!role.everyone && (
        <>
          <label for={`role-name-${role.id}`}>Name</label>
          <input id={`role-name-${role.id}`} value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
          <label for={`role-color-${role.id}`}>Colour</label>
          <input id={`role-color-${role.id}`} type="color" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
          <label class="check">
            <input type="checkbox" checked={hoist} onChange={(e) => setHoist(e.currentTarget.checked)} />
            Display separately
          </label>
          <label class="check">
            <input type="checkbox" checked={mentionable} onChange={(e) => setMentionable(e.currentTarget.checked)} />
            Allow anyone to @mention
          </label>
        </>
      )}
      <RolePermissions checked={perms} had={had} grantable={grantable(guild)} onChange={setPerms} />
      <button type="submit" class="primary" disabled={req.busy}>
        Save role
      </button>
      <button type="button" onClick={onDone}>
        Done
      </button>
      <ErrorLine error={req.error ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </form>
  );
}
