/**
 * Fingerprints people compare to know no one else reads along. A device's fingerprint is
 * a short digest of its public keys; a DM's safety number is a digest of the current
 * devices of both its people, so both screens show the same number, and it changes when
 * either person gains or loses a device (or the server slips one in).
 */
import { buf, concat, utf8 } from "./bytes";
import { CURVES } from "./format";
import type { PublicKeys } from "./keys";

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", buf(bytes)));
}

function keyText(keys: PublicKeys): string {
  return CURVES.map((c) => `${c}=${keys[c] ?? ""}`).join(";");
}

/** A device's fingerprint: 16 hex digits in groups of four ("3f9a 1c2b 77de 0a11"). */
export async function deviceFingerprint(keys: PublicKeys): Promise<string> {
  const d = await sha256(utf8(`parley device v1\n${keyText(keys)}`));
  const hex = [...d.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex.match(/.{4}/g)!.join(" ");
}

/**
 * The safety number of a set of devices (a DM's two people): 30 digits in six groups of
 * five. Order-independent: the devices are sorted by person, then device id.
 */
export async function safetyNumber(devices: { id: string; user_id: string; keys: PublicKeys }[]): Promise<string> {
  const lines = devices.map((d) => `${d.user_id} ${d.id} ${keyText(d.keys)}`).sort();
  const d = await sha256(concat(utf8("parley safety number v1\n"), utf8(lines.join("\n"))));
  const groups: string[] = [];
  for (let i = 0; i < 6; i++) {
    // Five bytes (40 bits) per group, reduced to five digits.
    let n = 0;
    for (let j = 0; j < 5; j++) n = n * 256 + d[i * 5 + j];
    groups.push(String(n % 100_000).padStart(5, "0"));
  }
  return groups.join(" ");
}
