/**
 * One channel's settings: its name, topic, slow mode and whether it is age-restricted
 * (NSFW). One request (PATCH /channels/{id}) saves what changed; the server's reason
 * for a refusal shows beside the field it names. Bots hear CHANNEL_UPDATE from the core.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { useOnChange } from "../hooks";
import type { Channel, Guild } from "../types";
import { ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { textChannels, useRequest } from "./common";

/** The reference client's slow mode choices, in seconds. */
const SLOW_MODES: [number, string][] = [
  [0, "Off"],
  [5, "5 seconds"],
  [10, "10 seconds"],
  [30, "30 seconds"],
  [60, "1 minute"],
  [300, "5 minutes"],
  [900, "15 minutes"],
  [3600, "1 hour"],
  [21600, "6 hours"],
];

export function ChannelEdit({ guild }: { guild: Guild }) {
  const channels = textChannels(guild);
  const [id, setId] = useState(channels[0]?.id ?? "");
  const channel = channels.find((c) => c.id === id) ?? channels[0];
  if (!channel) return null;
  return (
    <section class="card" aria-labelledby="channel-edit-title">
      <h3 id="channel-edit-title">Edit a channel</h3>
      <div class="field">
        <label for="channel-edit-which">Channel to edit</label>
        <select id="channel-edit-which" value={channel.id} onChange={(e) => setId(e.currentTarget.value)}>
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              #{c.name}
            </option>
          ))}
        </select>
      </div>
      <ChannelForm key={channel.id} channel={channel} />
    </section>
  );
}

function ChannelForm({ channel }: { channel: Channel }) {
  const [name, setName] = useState(channel.name ?? "");
  const [topic, setTopic] = useState(channel.topic ?? "");
  const [slow, setSlow] = useState(channel.rate_limit_per_user ?? 0);
  const [nsfw, setNsfw] = useState(channel.nsfw ?? false);
  const req = useRequest();
  // Another moderator's change (channel.updated) shows here too, unless this form is mid-edit.
  useOnChange(`${channel.rate_limit_per_user}|${channel.nsfw}`, () => {
    if (req.busy) return;
    setSlow(channel.rate_limit_per_user ?? 0);
    setNsfw(channel.nsfw ?? false);
  });
  const nameError = fieldError(req.error, "name");
  const topicError = fieldError(req.error, "topic");
  async function save(e: Event) {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (name.trim() !== channel.name) body.name = name.trim();
    if (topic.trim() !== (channel.topic ?? "")) body.topic = topic.trim() || null;
    if (slow !== (channel.rate_limit_per_user ?? 0)) body.rate_limit_per_user = slow;
    if (nsfw !== (channel.nsfw ?? false)) body.nsfw = nsfw;
    await req.run(
      () => (Object.keys(body).length ? api<Channel>("PATCH", `/channels/${channel.id}`, body) : Promise.resolve(channel)),
      (c) => `#${c.name} saved.`,
    );
  }
  return (
    <form onSubmit={save} noValidate aria-label={`Settings for #${channel.name}`}>
      <Field id="channel-edit-name" label="Name" value={name} onInput={setName} error={nameError} />
      <Field id="channel-edit-topic" label="Topic" value={topic} onInput={setTopic} error={topicError} multiline />
      <div class="field">
        <label for="channel-edit-slow">Slow mode</label>
        <select id="channel-edit-slow" value={String(slow)} onChange={(e) => setSlow(Number(e.currentTarget.value))}>
          {SLOW_MODES.map(([s, label]) => (
            <option key={s} value={String(s)}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <label class="check">
        <input type="checkbox" checked={nsfw} onChange={(e) => setNsfw(e.currentTarget.checked)} /> Age-restricted (NSFW)
      </label>
      <button type="submit" class="primary" disabled={req.busy}>
        Save channel
      </button>
      <ErrorLine error={req.error && !nameError && !topicError ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </form>
  );
}
