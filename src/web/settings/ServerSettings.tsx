/**
 * Server settings, inside the chat, for people who hold the permission: the server's
 * name (Manage Server), channels (Manage Channels), roles and a channel's overwrites
 * (Manage Roles), invite links (Create Invite), and Kick and Ban (bots included). Each
 * part shows what the server refused next to its control: nothing fails silently.
 */
import { signal } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { BIT, holds } from "../names";
import { guilds } from "../state";
import type { Channel, Guild } from "../types";
import { CopyField, ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { Overwrites, Roles } from "./Roles";
import { MemberModeration } from "./Moderation";
import { textChannels, useRequest } from "./common";
import { Emoji, ServerIcon } from "./Images";

/** The server whose settings are open in place of its channel, if any. */
export const settingsFor = signal<string | null>(null);

const SETTINGS_BITS = ["MANAGE_GUILD", "MANAGE_CHANNELS", "MANAGE_ROLES", "CREATE_INSTANT_INVITE", "KICK_MEMBERS", "BAN_MEMBERS", "MANAGE_EXPRESSIONS"];

/** Whether any part of the settings is the person's to use. */
export function hasSettings(g: Guild): boolean {
  return SETTINGS_BITS.some((n) => holds(g, BIT[n]));
}

export function SettingsButton({ guild }: { guild: Guild }) {
  if (!hasSettings(guild)) return null;
  const openNow = settingsFor.value === guild.id;
  return (
    <button type="button" class="settings-toggle" aria-pressed={openNow} onClick={() => (settingsFor.value = openNow ? null : guild.id)}>
      Server settings
    </button>
  );
}

export function ServerSettings({ guild }: { guild: Guild }) {
  useEffect(() => {
    document.title = `Server settings · ${guild.name} · Parley`;
  }, [guild.name]);
  return (
    <section class="settings" aria-labelledby="settings-title">
      <div class="settings-head">
        <h2 id="settings-title">Server settings</h2>
        <button type="button" onClick={() => (settingsFor.value = null)}>
          Close settings
        </button>
      </div>
      {holds(guild, BIT.MANAGE_GUILD) && <Overview guild={guild} />}
      {holds(guild, BIT.MANAGE_GUILD) && <ServerIcon guild={guild} />}
      {holds(guild, BIT.MANAGE_EXPRESSIONS) && <Emoji guild={guild} />}
      {holds(guild, BIT.MANAGE_CHANNELS) && <Channels guild={guild} />}
      {holds(guild, BIT.MANAGE_ROLES) && <Roles guild={guild} />}
      {holds(guild, BIT.MANAGE_ROLES) && <Overwrites guild={guild} />}
      {holds(guild, BIT.CREATE_INSTANT_INVITE) && <Invites guild={guild} />}
      {(holds(guild, BIT.KICK_MEMBERS) || holds(guild, BIT.BAN_MEMBERS)) && <MemberModeration guild={guild} />}
    </section>
  );
}

function putGuild(g: Guild): void {
  guilds.value = guilds.value.map((x) => (x.id === g.id ? { ...x, ...g } : x));
}

function Overview({ guild }: { guild: Guild }) {
  const [name, setName] = useState(guild.name);
  const req = useRequest();
  const nameError = fieldError(req.error, "name");
  async function save(e: Event) {
    e.preventDefault();
    const g = await req.run(() => api<Guild>("PATCH", `/guilds/${guild.id}`, { name: name.trim() }), () => "Saved.");
    if (g) putGuild(g);
  }
  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="overview-title">
      <h3 id="overview-title">Overview</h3>
      <div class="inline-form">
        <Field id="server-name" label="Server name" value={name} onInput={setName} error={nameError} />
        <button type="submit" class="primary" disabled={req.busy}>
          Save
        </button>
      </div>
      <Outcome req={req} field={nameError} />
    </form>
  );
}

function Channels({ guild }: { guild: Guild }) {
  const [name, setName] = useState("");
  const [topic, setTopic] = useState("");
  const req = useRequest();
  const nameError = fieldError(req.error, "name");
  async function create(e: Event) {
    e.preventDefault();
    const body = { name: name.trim(), topic: topic.trim() || undefined };
    const c = await req.run(() => api<Channel>("POST", `/guilds/${guild.id}/channels`, body), (c) => `#${c.name} created.`);
    if (c) {
      setName("");
      setTopic("");
    }
  }
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="channels-title">
      <h3 id="channels-title">Channels</h3>
      <p class="muted">{textChannels(guild).map((c) => `#${c.name}`).join(" · ") || "No text channel yet."}</p>
      <div class="inline-form">
        <Field id="channel-name" label="Channel name" value={name} onInput={setName} error={nameError} />
        <Field id="channel-topic" label="Topic" value={topic} onInput={setTopic} error={fieldError(req.error, "topic")} />
        <button type="submit" class="primary" disabled={req.busy}>
          Create channel
        </button>
      </div>
      <Outcome req={req} field={nameError} />
    </form>
  );
}

function Invites({ guild }: { guild: Guild }) {
  const channels = textChannels(guild);
  const [channel, setChannel] = useState(channels[0]?.id ?? "");
  const [link, setLink] = useState<string | null>(null);
  const req = useRequest();
  async function create() {
    const inv = await req.run(() => api<{ code: string }>("POST", `/channels/${channel}/invites`, {}), () => "Invite link created. It works for 24 hours.");
    if (inv) setLink(`${location.origin}/invite/${inv.code}`);
  }
  return (
    <section class="card" aria-labelledby="invites-title">
      <h3 id="invites-title">Invites</h3>
      <div class="inline-form">
        <div class="field">
          <label for="invite-channel">Invite channel</label>
          <select id="invite-channel" value={channel} onChange={(e) => setChannel(e.currentTarget.value)}>
            {channels.map((c) => (
              <option key={c.id} value={c.id}>
                #{c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="primary" disabled={req.busy || !channel} onClick={create}>
          Create invite link
        </button>
      </div>
      <Outcome req={req} />
      {link && <CopyField id="invite-link" label="Invite link" value={link} copyLabel="Copy invite link" />}
    </section>
  );
}

/**
 * What a form's request came to: its error (unless a field already shows it, beside the
 * field) and the status line a screen reader announces.
 */
function Outcome({ req, field }: { req: ReturnType<typeof useRequest>; field?: string }) {
  return (
    <>
      <ErrorLine error={req.error && !field ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </>
  );
}
