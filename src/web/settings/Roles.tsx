/**
 * A new role, for people with Manage Roles: its name and the 13 honoured permissions by
 * name (spec 2.9). Bits the person may not grant are not offered (settings/rank.ts);
 * should the server refuse anyway, its reason shows beside the form.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { PERMISSIONS } from "../names";
import type { Guild, Role } from "../types";
import { ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { useRequest } from "./common";
import { grantable } from "./rank";
import { RolePermissions } from "./RolePermissions";

export function Roles({ guild }: { guild: Guild }) {
  const [name, setName] = useState("");
  const [perms, setPerms] = useState<Set<string>>(new Set());
  const req = useRequest();
  const nameError = fieldError(req.error, "name");
  async function create(e: Event) {
    e.preventDefault();
    const body = { name: name.trim(), permissions: PERMISSIONS.filter((p) => perms.has(p.name)).map((p) => p.name) };
    const r = await req.run(
      () => api<Role>("POST", `/guilds/${guild.id}/roles`, body),
      (r) => `Role ${r.name} created.`,
    );
    if (r) {
      setName("");
      setPerms(new Set());
    }
  }
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="roles-title">
      <h3 id="roles-title">Roles</h3>
      <Field id="role-name" label="Role name" value={name} onInput={setName} error={nameError} />
      <RolePermissions checked={perms} grantable={grantable(guild)} onChange={setPerms} />
      <ErrorLine error={req.error && !nameError ? errorText(req.error) : undefined} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={req.busy}>
          Create role
        </button>
        <span role="status" class="hint">
          {req.status}
        </span>
      </div>
    </form>
  );
}
