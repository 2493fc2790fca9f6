/** What the DM composer says about encryption: this device's keys being set up (or not), what a bot sees, and a person with no device. */
import { device } from "../device";
import type { Channel } from "../types";
import { displayName } from "../state";
import { current, dmDevices } from "../dm-crypto";

/** Whether this browser can encrypt yet (reads the device signal, so callers re-render when it changes). */
export function dmReady(): boolean {
  return device.value.state === "ready";
}

export function DmComposerNote({ channel }: { channel: Channel }) {
  const d = device.value;
  if (d.state === "failed")
    return <p class="error">This browser could not set up encryption keys, so it cannot send direct messages: {d.error}</p>;
  if (d.state !== "ready") return <p class="muted">Setting up this browser's encryption keys…</p>;
  const other = channel.recipients?.[0];
  // Spec 1.6: a bot gets the envelope of a person's DM, never its text; commands reach it as interactions.
  if (other?.bot)
    return <p class="muted">{displayName(other)} cannot read what you type here, but it can answer slash commands (type /).</p>;
  const list = dmDevices.value[channel.id];
  // Sealed for no device of theirs, a message could never be read by them.
  if (other && list && !current(list).some((d) => d.user_id === other.id))
    return <p class="muted">{displayName(other)} has not signed in on any device yet, so cannot read what you send now.</p>;
  return null;
}
