/** Test plumbing for encrypted DMs: envelopes of the right shape (src/e2e/format.ts) whose content means nothing. */
import { formatEnvelope, NONCE_BYTES, TAG_BYTES, WRAP_BYTES } from "../src/e2e";

export const SOME_DEVICE = "01900000-0000-7000-8000-00000000d001";

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/**
 * A well-shaped dm1 envelope of random bytes, sent from `devices[0]`: the server takes it
 * when that is a current device of the sender's, and no client could open it.
 */
export function shapedEnvelope(bucket = 128, devices = [SOME_DEVICE]): string {
  return formatEnvelope({
    from: devices[0],
    nonce: random(NONCE_BYTES),
    body: random(bucket + TAG_BYTES),
    wraps: devices.map((device) => ({ device, key: random(WRAP_BYTES) })),
  });
}
