/**
 * Devices for end-to-end encrypted DMs (src/e2e): each client a person uses registers its
 * public keys here; the private keys never leave the client. The server checks a key's
 * shape only. A person's devices are shown to themselves and to the people they share a
 * DM with, removed ones included (their old messages still name them); a client encrypts
 * for the current ones only.
 */
import type { CoreDeps } from "./deps";
import type { Device } from "./models";
import { DEVICE_COLUMNS, modelOf, type DeviceRow } from "./rows";
import type { Users } from "./users";
import type { People } from "./people";
import { DomainError } from "./errors";
import { MAX_DEVICES, publicKeyProblem, type Curve } from "../e2e/format";
import { backupProblem } from "../e2e/backup";
import type { Session } from "./models";

export interface NewDevice {
  name?: string;
  x25519?: string | null;
  p256?: string | null;
  /** For a key backup: its private keys, sealed by the client (shape checked only). */
  backup?: string | null;
}

export class Devices {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly people: People,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Device | null {
    return this.db.query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE id = ?`).get(id) as Device | null;
  }

  /** A person's current devices, oldest first. */
  current(userId: string): Device[] {
    return this.db.query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE user_id = ? AND removed_at IS NULL ORDER BY id`).all(userId) as Device[];
  }

  /**
   * Register a client's public keys; at least one curve, each key of the right shape.
   * `session` is the token of the sign-in session registering it, which then holds it
   * (a key backup is held by none: removing it signs nobody out).
   */
  register(userId: string, input: NewDevice, session: Session | null = null): Device {
    const name = (input.name ?? "").trim() || "Device";
    if (name.length > 64) throw DomainError.invalid("name", "Must be 64 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
    const keys: Record<Curve, string | null> = { x25519: input.x25519 ?? null, p256: input.p256 ?? null };
    if (!keys.x25519 && !keys.p256) throw DomainError.invalid("keys", "A device needs an x25519 or a p256 public key", "BASE_TYPE_REQUIRED");
    for (const curve of ["x25519", "p256"] as const) {
      const problem = keys[curve] && publicKeyProblem(curve, keys[curve]!);
      if (problem) throw DomainError.invalid(`keys.${curve}`, `Must be a raw public key in base64url: ${problem}`, "BASE_TYPE_INVALID");
    }
    const backup = input.backup ?? null;
    const problem = backup && backupProblem(backup);
    if (problem) throw DomainError.invalid("backup", `Must be a sealed key backup: ${problem}`, "BASE_TYPE_INVALID");
    return this.d.store.write(() => {
      const user = this.users.require(userId);
      if (user.kind !== "person") throw DomainError.forbidden("Only people have devices");
      // A new key backup replaces the current one (whose sealed keys stay, for older messages).
      if (backup) for (const old of this.current(userId).filter((d) => d.backup !== null)) this.remove(userId, old.id);
      if (this.current(userId).length >= MAX_DEVICES)
        throw DomainError.invalid("", `You have ${MAX_DEVICES} devices: remove one first`, "MAX_DEVICES");
      const session_hash = session && !backup ? this.sessionHash(session) : null;
      const row: DeviceRow = { id: this.d.ids.next(), user_id: userId, name, ...keys, created_at: this.d.clock.now(), removed_at: null, backup, session_hash };
      this.db
        .query(
          "INSERT INTO devices (id, user_id, name, x25519, p256, created_at, removed_at, backup, session_hash) VALUES ($id, $user_id, $name, $x25519, $p256, $created_at, $removed_at, $backup, $session_hash)",
        )
        .run(row as never);
      this.d.store.emit({ type: "device.added", deviceId: row.id, userId });
      return modelOf<Device, DeviceRow>(row, DEVICE_COLUMNS);
    });
  }

  /** One of one's own current devices, or unknown. */
  private own(userId: string, deviceId: string): Device {
    const row = this.get(deviceId);
    if (!row || row.user_id !== userId || row.removed_at !== null) throw DomainError.notFound("device");
    return row;
  }

  /**
   * The session `session` holds one's own device from now on: a browser signed in again
   * (its old session gone) says which device is still its own, so removing that device
   * ends the session it is in now. A key backup is held by no session.
   */
  claim(userId: string, deviceId: string, session: Session): void {
    this.d.store.write(() => {
      const row = this.own(userId, deviceId);
      if (row.backup !== null) throw DomainError.invalid("device_id", "A key backup is held by no session", "DEVICE_IS_BACKUP");
      this.db.query("UPDATE devices SET session_hash = ? WHERE id = ?").run(this.sessionHash(session), deviceId);
    });
  }

  /**
   * Remove one of one's own current devices: nothing is sealed for it any more, its sends
   * are refused (People.send), and the sign-in session holding it ends, so a lost browser
   * is signed out too. Removing the device of the session one acts from keeps that
   * session. The ended session's live connections close like any ended session's, after
   * the removal's event: the removed browser hears of it, then is closed saying why.
   */
  remove(userId: string, deviceId: string, by: Session | null = null): Device {
    return this.d.store.write(() => {
      const row = this.own(userId, deviceId);
      const at = this.d.clock.now();
      this.db.query("UPDATE devices SET removed_at = ? WHERE id = ?").run(at, deviceId);
      const held = (this.db.query("SELECT session_hash FROM devices WHERE id = ?").get(deviceId) as Pick<DeviceRow, "session_hash">).session_hash;
      this.d.store.emit({ type: "device.removed", deviceId, userId });
      if (held && held !== (by && this.sessionHash(by))) this.users.sessions.endByTokenHash(userId, held);
      return { ...row, removed_at: at };
    });
  }

  /** The digest of a session's token, which ties a device to the sign-in holding it; null once the session ended. */
  private sessionHash(s: Pick<Session, "id">): string | null {
    return (this.db.query("SELECT token_hash FROM person_sessions WHERE id = ?").get(s.id) as { token_hash: string } | null)?.token_hash ?? null;
  }

  /** A person's key backups, removed ones included (their sealed keys still open older messages), newest first. */
  backups(userId: string): Device[] {
    return this.db.query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE user_id = ? AND backup IS NOT NULL ORDER BY id DESC`).all(userId) as Device[];
  }

  /** Every device, removed ones included, of the two people of a DM the viewer is in. */
  inDm(viewerId: string, channelId: string): Device[] {
    const c = this.people.channel(viewerId, channelId);
    if (c.guild_id !== null) throw DomainError.invalid("channel_id", "Only direct messages are end-to-end encrypted", "CHANNEL_TYPE_INVALID");
    return this.db
      .query(`SELECT ${DEVICE_COLUMNS("d")} FROM devices d JOIN dm_recipients r ON r.user_id = d.user_id WHERE r.channel_id = ? ORDER BY d.user_id, d.id`)
      .all(channelId) as Device[];
  }

  /** Who hears of a person's device changing: the person and everyone who shares a DM with them. */
  audience(userId: string): string[] {
    const rows = this.db
      .query(
        "SELECT DISTINCT o.user_id FROM dm_recipients mine JOIN dm_recipients o ON o.channel_id = mine.channel_id WHERE mine.user_id = ? AND o.user_id != ?",
      )
      .all(userId, userId) as { user_id: string }[];
    return [userId, ...rows.map((r) => r.user_id)];
  }
}
