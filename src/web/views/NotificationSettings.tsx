/**
 * "Enable desktop notifications" (the browser's permission) and "Notification settings":
 * a dialog for the open channel and its server, each a group of radios ("All messages",
 * "Only @mentions", "Nothing", or as the scope above) and "Mute for" the channel. User
 * settings' Notifications section (settings/Notifications.tsx) reuses the parts.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { channelLabel, guildOf, showNotice } from "../state";
import type { Channel, Guild } from "../types";
import type { NotificationSetting } from "../../contract";
import { askDesktopPermission, desktopPermission, notifySettings, putNotifySetting } from "../notify";
import { errorText } from "./ui";
import { useModal } from "./modal";

const LEVELS: [number, string][] = [
  [0, "All messages"],
  [1, "Only @mentions"],
  [2, "Nothing"],
];
const MUTES: [string, number | null][] = [
  ["Not muted", null],
  ["15 minutes", 15 * 60_000],
  ["1 hour", 3600_000],
  ["8 hours", 8 * 3600_000],
  ["24 hours", 24 * 3600_000],
  ["Until I turn it back on", Infinity],
];
/** The last instant of year 9999: "until I turn it back on". */
const FOREVER = "9999-12-31T23:59:59.999Z";

export function NotifyControls({ channel }: { channel: Channel }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {desktopPermission.value === "default" && <EnableDesktop class="header-button" />}
      <button type="button" class="header-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Notification settings
      </button>
      {open && <SettingsDialog channel={channel} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Asks the browser for its permission (only a click may ask). */
export function EnableDesktop({ class: cls }: { class?: string }) {
  return (
    <button type="button" class={cls} onClick={() => void askDesktopPermission()}>
      Enable desktop notifications
    </button>
  );
}

/** A server's own choice, which "unset" falls back to. */
export function serverDefault(guild: Guild): string {
  return `Server default (${guild.default_message_notifications === 1 ? "only @mentions" : "all messages"})`;
}

async function put(scopeId: string, body: { level?: number | null; muted_until?: string | null }): Promise<void> {
  try {
    putNotifySetting(await api<NotificationSetting>("PUT", `/users/@me/notification-settings/${scopeId}`, body));
  } catch (e) {
    showNotice(errorText(e));
  }
}

/** Focus starts on the first choice. */
function SettingsDialog({ channel, onClose }: { channel: Channel; onClose(): void }) {
  const modal = useModal(onClose);
  const guild = channel.guild_id ? guildOf(channel.guild_id) : undefined;
  return (
    <dialog ref={modal.ref} class="pins" aria-labelledby="ns-title">
      <h2 id="ns-title">Notification settings</h2>
      <Levels scopeId={channel.id} legend={channelLabel(channel)} inherit={guild ? "As the server" : null} />
      {guild && <Levels scopeId={guild.id} legend={guild.name} inherit={serverDefault(guild)} />}
      <MuteSelect scopeId={channel.id} label={channelLabel(channel)} />
      <div class="buttons">
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
    </dialog>
  );
}

export function Levels({ scopeId, legend, inherit }: { scopeId: string; legend: string; inherit: string | null }) {
  const level = notifySettings.value[scopeId]?.level ?? null;
  const choices: [number | null, string][] = inherit ? [[null, inherit], ...LEVELS] : LEVELS;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {choices.map(([v, label]) => (
        <label key={label}>
          <input
            type="radio"
            name={`level-${scopeId}`}
            checked={level === v || (v === 0 && level === null && !inherit)}
            onChange={() => void put(scopeId, { level: v })}
          />{" "}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** "Mute <label> for": a choice of spans, and while muted, until when (also a choice, to keep it). */
export function MuteSelect({ scopeId, label }: { scopeId: string; label: string }) {
  const mine = notifySettings.value[scopeId];
  const muted = mine?.muted_until && Date.parse(mine.muted_until) > Date.now() ? mine.muted_until : null;
  return (
    <label>
      Mute {label} for{" "}
      <select
        onChange={(e) => {
          const i = Number(e.currentTarget.value);
          if (i < 0) return;
          const ms = MUTES[i][1];
          void put(scopeId, { muted_until: ms === null ? null : ms === Infinity ? FOREVER : new Date(Date.now() + ms).toISOString() });
        }}
      >
        {muted && (
          <option value={-1} selected>
            {muted === FOREVER ? "Muted until I turn it back on" : `Muted until ${new Date(muted).toLocaleString()}`}
          </option>
        )}
        {MUTES.map(([text], i) => (
          <option key={text} value={i} selected={i === 0 && !muted}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
