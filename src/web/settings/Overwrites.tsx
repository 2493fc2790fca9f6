/**
 * "Channel permissions": a channel's or a category's overwrites for a role or member, the
 * 13 honoured permissions each Inherit, Allow or Deny (PUT /channels/{id}/overwrites/{target}).
 * A channel in a category says whether its permissions are synced with the category's and,
 * when they are not, offers "Sync permissions with <category>" (sync.ts). Bits the person
 * may not write are not offered (rank.ts); should the server refuse anyway, its reason
 * shows beside the form.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { CATEGORY, channelGroups } from "../channel-groups";
import { useOnChange } from "../hooks";
import { PERMISSIONS } from "../names";
import { displayName, guilds, members } from "../state";
import type { Channel, Guild } from "../types";
import { focusLost } from "../views/focus";
import { ErrorLine, errorText } from "../views/ui";
import { useRequest } from "./common";
import { mayOverwrite } from "./rank";
import { categoryOf, maySync, sameOverwrites, syncBody } from "./sync";

type Choice = "inherit" | "allow" | "deny";

const ADMINS_ONLY = "Manage Roles, and permissions you do not hold, are for administrators to allow or deny.";

const overwriteOf = (c: Channel | undefined, target: string) => c?.overwrites?.find((x) => x.target_id === target);

/** What a channel's overwrite for a target says, permission by permission. */
function choicesOf(c: Channel | undefined, target: string): Record<string, Choice> {
  const o = overwriteOf(c, target);
  const allow = Number(o?.allow ?? 0);
  const deny = Number(o?.deny ?? 0);
  return Object.fromEntries(PERMISSIONS.map((p) => [p.name, allow & p.bit ? "allow" : deny & p.bit ? "deny" : "inherit"]));
}

/** The text channels and categories, as the rail lists them: each category before its channels. */
function editable(g: Guild): Channel[] {
  return channelGroups(g, (c) => c.type === 0 || c.type === 5).flatMap((x) => (x.category ? [x.category, ...x.channels] : x.channels));
}

const labelOf = (c: Channel) => (c.type === CATEGORY ? `Category ${c.name}` : `#${c.name}`);

/** Longer than 80 lines because its form is one piece of markup. */
export function Overwrites({ guild }: { guild: Guild }) {
  const channels = editable(guild);
  const people = members.value[guild.id] ?? [];
  const [channel, setChannel] = useState(channels.find((c) => c.type !== CATEGORY)?.id ?? channels[0]?.id ?? "");
  const [target, setTarget] = useState(guild.roles.find((r) => r.everyone)?.id ?? "");
  const current = guild.channels.find((c) => c.id === channel);
  const [choices, setChoices] = useState<Record<string, Choice>>(choicesOf(current, target));
  const req = useRequest();
  // Another moderator's (or a bot's) change to the overwrite shown is followed, unless the
  // person has changed a choice since: a save would otherwise put the old values back.
  const shown = useRef(choices);
  // The choices follow the pair chosen in the same event: an effect would reset them a frame later, over what was picked meanwhile.
  function show(next: Record<string, Choice>): void {
    shown.current = next;
    setChoices(next);
  }
  function choose(nextChannel: string, nextTarget: string): void {
    setChannel(nextChannel);
    setTarget(nextTarget);
    show(
      choicesOf(
        guild.channels.find((c) => c.id === nextChannel),
        nextTarget,
      ),
    );
  }
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
  async function sync(c: Channel, category: Channel) {
    const done = await req.run(
      () => api<Channel>("PATCH", `/channels/${c.id}`, syncBody(category)),
      () => `#${c.name} synced with ${category.name}.`,
    );
    if (!done) return;
    // Shown at once, not when the live connection brings it: the line then says "synced" as the status does.
    guilds.value = guilds.value.map((g) =>
      g.id === guild.id ? { ...g, channels: g.channels.map((x) => (x.id === done.id ? done : x)) } : g,
    );
    // A sync is asked for on purpose: what it wrote replaces any choice not saved.
    show(choicesOf(done, target));
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
                {labelOf(c)}
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
      <SyncState guild={guild} channel={current} busy={req.busy} onSync={sync} />
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

/**
 * Whether a channel in a category has the category's permissions, and the button that
 * gives them. Once synced, the button is gone: focus that was on it goes to the line that
 * says so, not to the page's body.
 */
function SyncState(props: { guild: Guild; channel: Channel | undefined; busy: boolean; onSync(c: Channel, category: Channel): void }) {
  const { channel: c } = props;
  const category = categoryOf(props.guild, c);
  const synced = !!c && !!category && sameOverwrites(c, category);
  const line = useRef<HTMLParagraphElement>(null);
  const asked = useRef(false);
  useLayoutEffect(() => {
    if (synced && asked.current && focusLost()) line.current?.focus();
    asked.current = false;
  }, [synced]);
  if (!c || !category) return null;
  if (synced)
    return (
      <p class="note" ref={line} tabIndex={-1}>
        Permissions synced with {category.name}.
      </p>
    );
  return (
    <div class="note sync-state">
      <p>Permissions not synced with {category.name}.</p>
      {maySync(c) ? (
        <button
          type="button"
          disabled={props.busy}
          onClick={() => {
            asked.current = true;
            props.onSync(c, category);
          }}
        >
          Sync permissions with {category.name}
        </button>
      ) : (
        <p class="hint">Syncing needs Manage Channels as well.</p>
      )}
    </div>
  );
}
