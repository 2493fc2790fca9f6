/** What the DM composer says about encryption: this device's keys being set up (or not), and what a bot sees. */
import { device } from "../device";
import type { Channel } from "../types";
import { displayName } from "../state";

/** Whether this browser can encrypt yet (reads the device signal, so callers re-render when it changes). */
export function dmReady(): boolean {
  return device.value.state === "ready";
}

export function DmComposerNote({ channel }: { channel: Channel }) {
  const d = device.value;
  if (d.state === "failed") return <p class="error">This browser could not set up encryption keys, so it cannot send direct messages: {d.error}</p>;
  if (d.state !== "ready") return <p class="muted">Setting up this browser's encryption keys…</p>;
  const other = channel.recipients?.[0];
  if (other?.bot) return <p class="muted">Encrypted for your devices only: {displayName(other)} sees that you wrote, not what.</p>;
  return null;
}
