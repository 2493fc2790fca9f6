/**
 * The server's roles, highest first, for people with Manage Roles: per role "Edit <role>"
 * (name, colour, "Display separately", "Allow anyone to @mention" and its permissions;
 * @everyone only its permissions, as it cannot be renamed), "Delete <role>" (asks once,
 * says who loses it) and "Move <role> up" / "Move <role> down", each disabled beyond one's
 * own rank with the reason (the owner is above every role; reference-gaps 1.3; rank.ts).
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { readableRoleColor } from "../colors";
import { permissionLabels } from "../names";
import { members } from "../state";
import type { Guild, Role } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";
import { useKeptFocus, useRequest } from "./common";
import { permissionBitsOf, permissionNames, RolePermissions } from "./RolePermissions";
import { grantable, myRank, ROLE_ABOVE } from "./rank";

const hex = (c: number) => `#${c.toString(16).padStart(6, "0")}`;

// Longer than 80 lines because each role row carries its edit, delete and move controls, laid out one attribute a line.
export function RoleList({ guild }: { guild: Guild }) {
  const roles = [...guild.roles].sort((a, b) => b.position - a.position);
  const movable = roles.filter((r) => !r.everyone);
  const rank = myRank(guild);
  const req = useRequest();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const keep = useKeptFocus();
  const holders = (r: Role) => (members.value[guild.id] ?? []).filter((m) => m.roles.includes(r.id)).length;
  async function move(r: Role, up: boolean) {
    // Not disabled while a request runs: a disabled button loses focus (useKeptFocus).
    if (req.busy) return;
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
  const beyond = "Beyond your own rank: only roles below your highest role move.";
  return (
    <section class="card" aria-labelledby="role-list-title">
      <h3 id="role-list-title">Roles here</h3>
      <p role="status" class="hint">
        {req.status}
      </p>
      {!deleting && <ErrorLine error={req.error ? errorText(req.error) : undefined} />}
      <ul class="rows" aria-label="Roles">
        {roles.map((r) => {
          const i = movable.indexOf(r);
          const mayUp = !r.everyone && i > 0 && movable[i - 1].position < rank && r.position < rank;
          const mayDown = !r.everyone && i >= 0 && i < movable.length - 1 && r.position < rank;
          const mine = r.position < rank;
          return (
            <li key={r.id}>
              <span class="row-name" style={r.color ? { color: readableRoleColor(r.color) } : undefined}>
                <b>{r.name}</b> <span class="muted">{permissionLabels(r.permissions).join(", ") || "no permissions"}</span>
              </span>
              {!r.everyone && (
                <>
                  <button
                    type="button"
                    data-keep={`${r.id}:up`}
                    disabled={!mayUp}
                    title={mayUp ? undefined : beyond}
                    onClick={() => move(r, true)}
                  >
                    Move {r.name} up
                  </button>
                  <button
                    type="button"
                    data-keep={`${r.id}:down`}
                    disabled={!mayDown}
                    title={mayDown ? undefined : beyond}
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
