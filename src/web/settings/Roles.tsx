/**
 * Roles and a channel's overwrites, for people with Manage Roles: the 13 honoured
 * permissions by name (spec 2.9). Bits the person may not grant are not offered
 * (settings/rank.ts); should the server refuse anyway, its reason shows beside the form.
 */
import { useRef, useState } from "preact/hooks";
import { api } from "../api";
import { useOnChange } from "../hooks";
import { PERMISSIONS } from "../names";
import { displayName, members } from "../state";
import type { Channel, Guild, Role } from "../types";
import { ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { textChannels, useRequest } from "./common";
import { grantable, mayOverwrite } from "./rank";
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

type Choice = "inherit" | "allow" | "deny";

const ADMINS_ONLY = "Manage Roles, and permissions you do not hold, are for administrators to allow or deny.";

const overwriteOf = (c: Channel | undefined, target: string) =>
  (c as (Channel & { overwrites?: { target_id: string; allow: string; deny: string }[] }) | undefined)?.overwrites?.find(
    (x) => x.target_id === target,
  );

/** What a channel's overwrite for a target says, permission by permission. */
function choicesOf(c: Channel | undefined, target: string): Record<string, Choice> {
  const o = overwriteOf(c, target);
  const allow = Number(o?.allow ?? 0);
  const deny = Number(o?.deny ?? 0);
  return Object.fromEntries(PERMISSIONS.map((p) => [p.name, allow & p.bit ? "allow" : deny & p.bit ? "deny" : "inherit"]));
}

/** A channel's permission overwrites for a role or member; longer than 80 lines because its form is one piece of markup. */
export function Overwrites({ guild }: { guild: Guild }) {
  const channels = textChannels(guild);
  const people = members.value[guild.id] ?? [];
  const [channel, setChannel] = useState(channels[0]?.id ?? "");
  const [target, setTarget] = useState(guild.roles.find((r) => r.everyone)?.id ?? "");
  const current = guild.channels.find((c) => c.id === channel);
  const [choices, setChoices] = useState<Record<string, Choice>>(choicesOf(current, target));
  // The choices follow the pair chosen in the same event: an effect would reset them a frame later, over what was picked meanwhile.
  function choose(nextChannel: string, nextTarget: string): void {
    setChannel(nextChannel);
    setTarget(nextTarget);
    setChoices(
      choicesOf(
        guild.channels.find((c) => c.id === nextChannel),
        nextTarget,
      ),
    );
  }
  const req = useRequest();
  // Another moderator's (or a bot's) change to the overwrite shown is followed, unless the
  // person has changed a choice since: a save would otherwise put the old values back.
  const shown = useRef(choices);
  const o = overwriteOf(current, target);
  useOnChange(`${channel}|${target}|${o?.allow}|${o?.deny}`, () => {
    const next = choicesOf(current, target);
    const edited = PERMISSIONS.some((p) => choices[p.name] !== shown.current[p.name]);
    shown.current = next;
    if (!edited) setChoices(next);
  });
  const isRole = guild.roles.some((r) => r.id === target);
  async function save(e: Event) {
    e.preventDefault();
    const pick = (c: Choice) => PERMISSIONS.filter((p) => choices[p.name] === c).map((p) => p.name);
    const body = { type: isRole ? "role" : "member", allow: pick("allow"), deny: pick("deny") };
    await req.run(
      () => api<Channel>("PUT", `/channels/${channel}/overwrites/${target}`, body),
      () => "Overwrites saved.",
    );
  }
  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="overwrites-title">
      <h3 id="overwrites-title">Channel permissions</h3>
      <div class="inline-form">
        <div class="field">
          <label for="ow-channel">Channel</label>
          <select id="ow-channel" value={channel} onChange={(e) => choose(e.currentTarget.value, target)}>
            {channels.map((c) => (
              <option key={c.id} value={c.id}>
                #{c.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="ow-target">Role or member</label>
          <select id="ow-target" value={target} onChange={(e) => choose(channel, e.currentTarget.value)}>
            <optgroup label="Roles">
              {guild.roles.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.everyone ? "@everyone" : `@${r.name}`}
                </option>
              ))}
            </optgroup>
            <optgroup label="Members">
              {people.map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.nick || displayName(m.user)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </div>
      <fieldset>
        <legend>Overwrites</legend>
        <ul class="perm-grid">
          {PERMISSIONS.map((p) => (
            <li key={p.name}>
              <select
                id={`ow-${p.name}`}
                value={choices[p.name]}
                disabled={!mayOverwrite(guild, current, p.bit)}
                onChange={(e) => setChoices({ ...choices, [p.name]: e.currentTarget.value as Choice })}
              >
                <option value="inherit">Inherit</option>
                <option value="allow">Allow</option>
                <option value="deny">Deny</option>
              </select>
              <label for={`ow-${p.name}`}>{p.label}</label>
            </li>
          ))}
        </ul>
        {PERMISSIONS.some((p) => !mayOverwrite(guild, current, p.bit)) && <p class="hint">{ADMINS_ONLY}</p>}
      </fieldset>
      <ErrorLine error={req.error ? errorText(req.error) : undefined} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={req.busy || !channel || !target}>
          Save overwrites
        </button>
        <span role="status" class="hint">
          {req.status}
        </span>
      </div>
    </form>
  );
}
