/**
 * What a DM's encryption looks like to the person: a notice when either person gains a
 * device (until acknowledged), and the "Safety number" panel: a number both people see
 * alike and can compare out of band, the devices it covers, and Remove for the person's
 * own other devices. A DM with a bot says what the bot can and cannot see.
 */
import { useEffect, useState } from "preact/hooks";
import { deviceFingerprint, safetyNumber } from "../../e2e";
import { api, ApiError } from "../api";
import { device } from "../device";
import { acknowledgeDevices, current, dmDevices, loadDevices, unseenDevices } from "../dm-crypto";
import { displayName, me, showNotice, users } from "../state";
import type { Channel, DeviceJson } from "../types";
import { KeyBackup } from "./KeyBackup";

function ownerName(d: DeviceJson, other: Channel["recipients"]): string {
  if (d.user_id === me.value?.id) return "You";
  return displayName(users.value[d.user_id] ?? other?.find((u) => u.id === d.user_id));
}

export function DmSecurity({ channel }: { channel: Channel }) {
  const [open, setOpen] = useState(false);
  const list = dmDevices.value[channel.id];
  const fresh = unseenDevices.value[channel.id] ?? [];
  const other = channel.recipients?.[0];
  useEffect(() => void loadDevices(channel.id).catch(() => undefined), [channel.id]);
  return (
    <section class="dm-security" aria-label="Encryption">
      {fresh.map((d) => (
        <p key={d.id} class="new-device" role="status">
          {d.user_id === me.value?.id ? "A new device was added to your account" : `${ownerName(d, channel.recipients)} added a new device`} ({d.name},{" "}
          {new Date(d.created_at).toLocaleString()}). Compare safety numbers to be sure it is theirs.
        </p>
      ))}
      {fresh.length > 0 && <button onClick={() => acknowledgeDevices(channel.id)}>Got it</button>}
      <button class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        Safety number
      </button>
      {open && list && <SafetyPanel channel={channel} list={list} bot={!!other?.bot} />}
    </section>
  );
}

function SafetyPanel({ channel, list, bot }: { channel: Channel; list: DeviceJson[]; bot: boolean }) {
  const [number, setNumber] = useState<string | null>(null);
  const now = current(list);
  const ids = now.map((d) => d.id).join(",");
  useEffect(() => {
    let live = true;
    void safetyNumber(now).then((n) => live && setNumber(n));
    return () => void (live = false);
  }, [ids]);
  const name = displayName(channel.recipients?.[0]);
  return (
    <div class="safety" role="region" aria-label="Safety number">
      {bot ? (
        <p>
          {name} is a bot. What you write here is encrypted for your own devices only: {name} sees that you wrote, never what. Its messages to you
          are not end-to-end encrypted.
        </p>
      ) : (
        <p>Compare this number with {name}'s. If both screens show the same number, only your devices and theirs can read this conversation.</p>
      )}
      <p class="number">
        Safety number: <output>{number ?? "…"}</output>
      </p>
      <ul aria-label="Devices">
        {now.map((d) => (
          <DeviceLine key={d.id} d={d} channel={channel} />
        ))}
      </ul>
      <KeyBackup channelId={channel.id} list={list} />
    </div>
  );
}

function DeviceLine({ d, channel }: { d: DeviceJson; channel: Channel }) {
  const [print, setPrint] = useState("");
  useEffect(() => void deviceFingerprint(d.keys).then(setPrint), [d.id]);
  const mine = d.user_id === me.value?.id;
  const here = device.value.state === "ready" && device.value.own.id === d.id;
  async function remove() {
    try {
      await api("DELETE", `/users/@me/devices/${d.id}`);
      await loadDevices(channel.id, true);
    } catch (e) {
      showNotice(`The device was not removed: ${e instanceof ApiError ? e.message : "the server could not be reached"}`);
    }
  }
  return (
    <li>
      <b>{ownerName(d, channel.recipients)}</b> · {d.name}
      {here && " (this device)"} · added {new Date(d.created_at).toLocaleDateString()} · <code>{print}</code>
      {mine && !here && (
        <button class="link" aria-label={`Remove ${d.name}`} onClick={remove}>
          Remove
        </button>
      )}
    </li>
  );
}
