/**
 * What a DM's encryption looks like to the person: a notice when either person gains a
 * device (until acknowledged), an alert when the server lists a device this browser will
 * not use (someone outside the DM's, or one whose keys changed), and the "Safety number"
 * panel: a number both people see alike and can compare out of band, computed from the
 * devices and keys this browser pinned, the devices it covers, and Remove for the
 * person's own other devices. A DM with a bot says what the bot can and cannot see.
 */
import { useEffect, useState } from "preact/hooks";
import { currentPins, deviceFingerprint, noticesFor, safetyNumber, type Conflict, type Pin, type TrustRecord } from "../../e2e";
import { api, ApiError } from "../api";
import { device } from "../device";
import { acknowledgeDevices, dmDevices, loadDevices, peopleOf } from "../dm-crypto";
import { trust } from "../trust";
import { displayName, me, showNotice, users } from "../state";
import type { Channel, DeviceJson } from "../types";
import { KeyBackup } from "./KeyBackup";

function ownerName(userId: string, other: Channel["recipients"]): string {
  if (userId === me.value?.id) return "You";
  return displayName(users.value[userId] ?? other?.find((u) => u.id === userId));
}

const selfId = () => (device.value.state === "ready" ? device.value.own.id : null);

function peopleOrNone(channel: Channel): string[] | null {
  try {
    return peopleOf(channel.id);
  } catch {
    return null;
  }
}

export function DmSecurity({ channel }: { channel: Channel }) {
  const [open, setOpen] = useState(false);
  const people = peopleOrNone(channel);
  const r = trust.value;
  const { announced, conflicts } = people ? noticesFor(r, channel.id, people, selfId()) : { announced: [], conflicts: [] };
  const other = channel.recipients?.[0];
  useEffect(() => void loadDevices(channel.id).catch(() => undefined), [channel.id]);
  return (
    <section class="dm-security" aria-label="Encryption">
      {conflicts.map((c) => (
        <p key={`${c.kind} ${c.device_id}`} class="error" role="alert">
          <ConflictText c={c} r={r} channel={channel} />
        </p>
      ))}
      {announced.map((d) => (
        <p key={d.id} class="new-device" role="status">
          {d.user_id === me.value?.id
            ? "A new device was added to your account"
            : `${ownerName(d.user_id, channel.recipients)} added a new device`}{" "}
          ({d.name}, {new Date(d.created_at).toLocaleString()}
          {d.removed_at !== null && ", since removed"}). Compare safety numbers to be sure it is theirs.
        </p>
      ))}
      {announced.length + conflicts.length > 0 && (
        <button type="button" onClick={() => acknowledgeDevices(channel.id)}>
          Got it
        </button>
      )}
      <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        Safety number
      </button>
      {open && people && (
        <SafetyPanel channel={channel} pins={currentPins(r, people)} list={dmDevices.value[channel.id] ?? []} bot={!!other?.bot} />
      )}
    </section>
  );
}

/** Why the server's list is not believed here, in the person's words. */
function ConflictText({ c, r, channel }: { c: Conflict; r: TrustRecord; channel: Channel }) {
  const other = displayName(channel.recipients?.[0]);
  if (c.kind === "outsider")
    return (
      <>
        The server listed a device of someone who is not in this conversation ({ownerName(c.user_id, channel.recipients)}). Nothing is
        encrypted for it.
      </>
    );
  const pin = r.devices[c.device_id];
  const whose = pin.user_id === me.value?.id ? "your device" : `${ownerName(pin.user_id, channel.recipients)}'s device`;
  return (
    <>
      The keys of {whose} “{pin.name || "unnamed"}” changed on the server. Parley keeps using the keys it first saw, so nothing is encrypted
      with the new ones. Compare safety numbers with {other}.
    </>
  );
}

function SafetyPanel({ channel, pins, list, bot }: { channel: Channel; pins: Pin[]; list: DeviceJson[]; bot: boolean }) {
  const [number, setNumber] = useState<string | null>(null);
  // What this browser pinned, never the server's list: a key the server swapped leaves the number as it was.
  const ids = pins.map((d) => `${d.id} ${d.keys.x25519} ${d.keys.p256}`).join(",");
  useEffect(() => {
    let live = true;
    void safetyNumber(pins).then((n) => live && setNumber(n));
    return () => void (live = false);
  }, [ids]);
  const name = displayName(channel.recipients?.[0]);
  return (
    <section class="safety" aria-label="Safety number">
      {bot ? (
        <p>
          {name} is a bot. What you write here is encrypted for your own devices only: {name} sees that you wrote, never what. Slash
          commands you send it, and its messages to you, are not end-to-end encrypted.
        </p>
      ) : (
        <p>
          Compare this number with {name}'s. If both screens show the same number, only your devices and theirs can read this conversation.
          It covers the devices this browser has seen, with the keys it first saw.
        </p>
      )}
      <p class="number">
        Safety number: <output>{number ?? "…"}</output>
      </p>
      <ul aria-label="Devices">
        {pins.map((d) => (
          <DeviceLine key={d.id} d={d} channel={channel} />
        ))}
      </ul>
      <KeyBackup channelId={channel.id} list={list} />
    </section>
  );
}

function DeviceLine({ d, channel }: { d: Pin; channel: Channel }) {
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
      <b>{ownerName(d.user_id, channel.recipients)}</b> · {d.name}
      {here && " (this device)"} · added {new Date(d.created_at).toLocaleDateString()} · <code>{print}</code>
      {mine && !here && (
        <button type="button" class="link" aria-label={`Remove ${d.name}`} onClick={remove}>
          Remove
        </button>
      )}
    </li>
  );
}
