/**
 * A server's invites: "Create invite" for a channel with "Expire after" and "Max uses",
 * and, for those who manage the server, the list with uses and creator and "Revoke
 * <code>". A signed-out visitor opening a link sees the server's name (views/Arrive.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { useOnChange } from "../hooks";
import { BIT, holds } from "../names";
import { displayName, members } from "../state";
import type { Guild } from "../types";
import type { Invite } from "../../contract";
import { CopyField, ErrorLine, errorText } from "../views/ui";
import { textChannels, useRequest } from "./common";
import { focusNextRow } from "../views/focus";

const EXPIRY: [string, number][] = [
  ["30 minutes", 1800],
  ["1 hour", 3600],
  ["1 day", 86_400],
  ["7 days", 604_800],
  ["Never", 0],
];
const USES: [string, number][] = [
  ["No limit", 0],
  ["1 use", 1],
  ["5 uses", 5],
  ["10 uses", 10],
  ["100 uses", 100],
];

// Longer than 80 lines because the create form and the list of invites share one request state.
export function InviteManager({ guild }: { guild: Guild }) {
  const channels = textChannels(guild);
  const [channel, setChannel] = useState(channels[0]?.id ?? "");
  const [maxAge, setMaxAge] = useState(86_400);
  const [maxUses, setMaxUses] = useState(0);
  const [link, setLink] = useState<string | null>(null);
  const [list, setList] = useState<Invite[] | null>(null);
  const [listError, setListError] = useState<string>();
  const req = useRequest();
  const manages = holds(guild, BIT.MANAGE_GUILD);
  async function load() {
    if (!manages) return;
    try {
      setList(await api<Invite[]>("GET", `/guilds/${guild.id}/invites`));
    } catch (e) {
      setListError(errorText(e));
    }
  }
  useEffect(() => void load(), [guild.id]);
  // Invites have no live news of their own; someone joining (most often through one of
  // them) is the moment their uses change, so the list is read again then.
  useOnChange((members.value[guild.id] ?? []).length, () => void load());
  async function create() {
    const inv = await req.run(
      () => api<Invite>("POST", `/channels/${channel}/invites`, { max_age: maxAge, max_uses: maxUses }),
      () => `Invite link created. ${maxAge ? `It expires after ${EXPIRY.find((x) => x[1] === maxAge)?.[0]}.` : "It never expires."}`,
    );
    if (inv) {
      setLink(`${location.origin}/invite/${inv.code}`);
      await load();
    }
  }
  async function revoke(code: string) {
    if (
      await req.run(
        () => api("DELETE", `/invites/${code}`),
        () => `Invite ${code} revoked.`,
      )
    )
      await load();
  }
  const creator = (id: string | null) => {
    const m = (members.value[guild.id] ?? []).find((x) => x.user.id === id);
    return m ? displayName(m.user) : "—";
  };
  return (
    <section class="card" aria-labelledby="invites-title">
      <h3 id="invites-title">Invites</h3>
      <div class="inline-form">
        <Choice
          id="invite-channel"
          label="Invite channel"
          value={channel}
          onChange={setChannel}
          options={channels.map((c) => [`#${c.name}`, c.id])}
        />
        <Choice
          id="invite-expiry"
          label="Expire after"
          value={String(maxAge)}
          onChange={(v) => setMaxAge(+v)}
          options={EXPIRY.map(([l, v]) => [l, String(v)])}
        />
        <Choice
          id="invite-uses"
          label="Max uses"
          value={String(maxUses)}
          onChange={(v) => setMaxUses(+v)}
          options={USES.map(([l, v]) => [l, String(v)])}
        />
        <button type="button" class="primary" disabled={req.busy || !channel} onClick={create}>
          Create invite
        </button>
      </div>
      <ErrorLine error={req.error ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
      {link && <CopyField id="invite-link" label="Invite link" value={link} copyLabel="Copy invite link" />}
      <ErrorLine error={listError} />
      {list && <InviteTable list={list} creator={creator} busy={req.busy} onRevoke={revoke} />}
      {list && !list.length && <p class="muted">No invite links yet: create one above.</p>}
    </section>
  );
}

function InviteTable({
  list,
  creator,
  busy,
  onRevoke,
}: {
  list: Invite[];
  creator(id: string | null): string;
  busy: boolean;
  onRevoke(code: string): void;
}) {
  return (
    <div class="table-scroll">
      <table aria-label="Invite links">
        <thead>
          <tr>
            <th>Code</th>
            <th>Channel</th>
            <th>Created by</th>
            <th>Uses</th>
            <th>Expires</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.map((i) => (
            <tr key={i.code}>
              <td>{i.code}</td>
              <td>{i.channel ? `#${i.channel.name}` : "—"}</td>
              <td>{creator(i.inviter_id)}</td>
              <td>{i.max_uses ? `${i.uses} of ${i.max_uses}` : String(i.uses)}</td>
              <td>{i.expires_at ? new Date(i.expires_at).toLocaleString() : "Never"}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  disabled={busy}
                  onClick={(e) => {
                    focusNextRow(e.currentTarget);
                    onRevoke(i.code);
                  }}
                >
                  Revoke {i.code}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A labelled select; options are [label, value]. */
export function Choice({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange(v: string): void;
  options: [string, string][];
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map(([l, v]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}
