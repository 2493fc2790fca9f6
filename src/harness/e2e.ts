/**
 * The harness plays one device per person (design/harness.md): its key pairs live only
 * in this process's memory, its public keys are registered like any client's, and it
 * encrypts and decrypts with the same scheme as the web client (src/e2e). So a DM the
 * harness sends is read in the recipient's browser, and a DM sent from a browser after
 * the harness device existed is read by the harness as the recipient.
 */
import type { Core, Device, Message, User } from "../core";
import {
  generateDeviceKeys,
  openMessage,
  publicKeysOf,
  sealMessage,
  type DeviceInfo,
  type MessageContent,
  type Opened,
  type OwnDevice,
} from "../e2e";

export function deviceInfo(d: Device): DeviceInfo {
  return { id: d.id, user_id: d.user_id, keys: { x25519: d.x25519, p256: d.p256 }, created_at: d.created_at, removed_at: d.removed_at };
}

export class HarnessDevices {
  private devices = new Map<string, OwnDevice>();
  /** Devices being made, so two concurrent requests for one person make one. */
  private making = new Map<string, Promise<OwnDevice>>();

  constructor(private readonly core: Pick<Core, "devices" | "dms">) {}

  /** The person's harness device, registered on first use (again if it was removed meanwhile). */
  async of(person: User): Promise<OwnDevice> {
    const known = this.devices.get(person.id);
    const row = known && this.core.devices.get(known.id);
    if (known && row && row.removed_at === null) return known;
    let made = this.making.get(person.id);
    if (!made) {
      made = this.make(person).finally(() => this.making.delete(person.id));
      this.making.set(person.id, made);
    }
    return made;
  }

  private async make(person: User): Promise<OwnDevice> {
    const keys = await generateDeviceKeys();
    const row = this.core.devices.register(person.id, { name: "Harness", ...(await publicKeysOf(keys)) });
    const own = { id: row.id, keys, created_at: row.created_at };
    this.devices.set(person.id, own);
    return own;
  }

  /**
   * Encrypt as `me` for every current device of the DM's two people. The harness is the
   * server's own process, so it reads devices from the core rather than pinning them as
   * a browser does (src/e2e/trust.ts); the scheme still seals for the two people alone.
   */
  async seal(me: User, channelId: string, content: string | MessageContent, editOf: string | null): Promise<string> {
    const mine = await this.of(me);
    const devices = this.core.devices.inDm(me.id, channelId).map(deviceInfo);
    return sealMessage(content, { channelId, authorId: me.id, editOf }, mine, devices, this.core.dms.recipients(channelId));
  }

  /** Decrypt a DM message as `viewer`'s harness device. */
  async open(viewer: User, m: Message): Promise<Opened> {
    const mine = await this.of(viewer);
    const devices = this.core.devices.inDm(viewer.id, m.channel_id).map(deviceInfo);
    const meta = { channelId: m.channel_id, authorId: m.author_id, messageId: m.id, createdAt: m.created_at, edited: m.edited_at !== null };
    return openMessage(m.ciphertext!, meta, mine, devices);
  }

  clear(): void {
    this.devices.clear();
    this.making.clear();
  }
}
