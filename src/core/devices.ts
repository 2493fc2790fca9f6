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
import type { TimerHandle } from "./clock";

/** A device's name as kept: trimmed, 1 to 64 characters; null for none given. */
function deviceName(raw: string | null | undefined): string | null {
  const name = (raw ?? "").trim();
  if (!name) return null;
  if (name.length > 64) throw DomainError.invalid("name", "Must be 64 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
  return name;
}

export interface NewDevice {
  name?: string;
  x25519?: string | null;
  p256?: string | null;
  /** For a key backup: its private keys, sealed by the client (shape checked only). */
  backup?: string | null;
}

export interface DevicePolicy {
  /** A device whose session was not used for this long is removed (device.removed); null: devices never expire. */
  expireAfterMs: number | null;
}

/** At least this long between two runs of the expiry, however many devices are due. */
const EXPIRY_MIN_GAP_MS = 60_000;

export class Devices {
  private expiryTimer: TimerHandle | null = null;

  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly people: People,
    private readonly policy: DevicePolicy = { expireAfterMs: null },
  ) {}

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Device | null {
    return this.db.query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE id = ?`).get(id) as Device | null;
  }

  /** A person's current devices, oldest first. */
  current(userId: string): Device[] {
    return this.db
      .query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE user_id = ? AND removed_at IS NULL ORDER BY id`)
      .all(userId) as Device[];
  }

  /**
   * Register a client's public keys; at least one curve, each key of the right shape.
   * `session` is the token of the sign-in session registering it, which then holds it
   * (a key backup is held by none: removing it signs nobody out).
   */
  register(userId: string, input: NewDevice, session: Session | null = null): Device {
    const name = deviceName(input.name) ?? "Device";
    const keys: Record<Curve, string | null> = { x25519: input.x25519 ?? null, p256: input.p256 ?? null };
    if (!keys.x25519 && !keys.p256)
      throw DomainError.invalid("keys", "A device needs an x25519 or a p256 public key", "BASE_TYPE_REQUIRED");
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
      // At most MAX_DEVICES and one key backup, checked by one writer at a time per person on every node.
      this.d.store.serialize(`devices:${userId}`);
      // A new key backup replaces the current one (whose sealed keys stay, for older messages).
      if (backup) for (const old of this.current(userId).filter((d) => d.backup !== null)) this.remove(userId, old.id);
      if (this.current(userId).length >= MAX_DEVICES)
        throw DomainError.invalid("", `You have ${MAX_DEVICES} devices: remove one first`, "MAX_DEVICES");
      const session_hash = session && !backup ? this.sessionHash(session) : null;
      const now = this.d.clock.now();
      const row: DeviceRow = {
        id: this.d.ids.next(),
        user_id: userId,
        name,
        ...keys,
        created_at: now,
        removed_at: null,
        backup,
        session_hash,
        last_used_at: now,
      };
      this.db
        .query(
          "INSERT INTO devices (id, user_id, name, x25519, p256, created_at, removed_at, backup, session_hash, last_used_at) VALUES ($id, $user_id, $name, $x25519, $p256, $created_at, $removed_at, $backup, $session_hash, $last_used_at)",
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
      this.db
        .query("UPDATE devices SET session_hash = ?, last_used_at = ? WHERE id = ?")
        .run(this.sessionHash(session), this.d.clock.now(), deviceId);
    });
  }

  /** A person renames one of their current devices (what they and the people they share a DM with see it called). */
  rename(userId: string, deviceId: string, raw: string): Device {
    const name = deviceName(raw);
    if (name === null) throw DomainError.invalid("name", "Must be between 1 and 64 in length.", "BASE_TYPE_BAD_LENGTH");
    return this.d.store.write(() => {
      const row = this.own(userId, deviceId);
      this.db.query("UPDATE devices SET name = ? WHERE id = ?").run(name, deviceId);
      return { ...row, name };
    });
  }

  /** The current device the session holds (the browser signed in with it), if any. */
  heldBy(session: Session): Device | null {
    const hash = this.sessionHash(session);
    if (!hash) return null;
    return this.db
      .query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE session_hash = ? AND removed_at IS NULL ORDER BY id LIMIT 1`)
      .get(hash) as Device | null;
  }

  /**
   * Sign out, and with `removeDevice` remove the device this session holds first (a
   * browser that will not be used again leaves no keys behind): one transaction, so the
   * device's removal and the sign-out are heard together. Answers the removed device.
   */
  signOut(userId: string, session: Session, removeDevice: boolean): Device | null {
    return this.d.store.write(() => {
      const held = removeDevice ? this.heldBy(session) : null;
      const removed = held ? this.remove(userId, held.id, session) : null;
      this.users.sessions.end(userId, session.id, "signed_out");
      return removed;
    });
  }

  /**
   * Remove every device unused for the policy's time (device.removed, as when its person
   * removes it, and the session still holding it, if any, ends). Key backups never
   * expire (no session holds one), nor do devices no sign-in ever held (the harness's).
   * Answers how many went.
   */
  expire(): number {
    const after = this.policy.expireAfterMs;
    if (after === null) return 0;
    return this.d.store.write(() => {
      const due = this.db
        .query(
          "SELECT id, user_id FROM devices WHERE removed_at IS NULL AND backup IS NULL AND session_hash IS NOT NULL AND coalesce(last_used_at, created_at) <= ? ORDER BY id",
        )
        .all(this.d.clock.now() - after) as { id: string; user_id: string }[];
      for (const dev of due) this.remove(dev.user_id, dev.id);
      return due.length;
    });
  }

  /**
   * Run the expiry now and again whenever the next device can be due (the server's
   * process: core.startTimers). Touches only push a device's time later, so waking at
   * the earliest last use plus the policy's time never misses one.
   */
  startExpiry(): void {
    const after = this.policy.expireAfterMs;
    this.expiryTimer?.cancel();
    if (after === null) return;
    this.expire();
    const oldest = this.db
      .query(
        "SELECT min(coalesce(last_used_at, created_at)) AS t FROM devices WHERE removed_at IS NULL AND backup IS NULL AND session_hash IS NOT NULL",
      )
      .get() as { t: number | null };
    const now = this.d.clock.now();
    const next = oldest.t === null ? now + after : oldest.t + after;
    this.expiryTimer = this.d.clock.setTimeout(() => this.startExpiry(), Math.max(EXPIRY_MIN_GAP_MS, next - now));
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
      const held = (this.db.query("SELECT session_hash FROM devices WHERE id = ?").get(deviceId) as Pick<DeviceRow, "session_hash">)
        .session_hash;
      this.d.store.emit({ type: "device.removed", deviceId, userId });
      if (held && held !== (by && this.sessionHash(by))) this.users.sessions.endByTokenHash(userId, held);
      return { ...row, removed_at: at };
    });
  }

  /** The digest of a session's token, which ties a device to the sign-in holding it; null once the session ended. */
  private sessionHash(s: Pick<Session, "id">): string | null {
    return (
      (this.db.query("SELECT token_hash FROM person_sessions WHERE id = ?").get(s.id) as { token_hash: string } | null)?.token_hash ?? null
    );
  }

  /** A person's key backups, removed ones included (their sealed keys still open older messages), newest first. */
  backups(userId: string): Device[] {
    return this.db
      .query(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE user_id = ? AND backup IS NOT NULL ORDER BY id DESC`)
      .all(userId) as Device[];
  }

  /** Every device, removed ones included, of the two people of a DM the viewer is in. */
  inDm(viewerId: string, channelId: string): Device[] {
    const c = this.people.channel(viewerId, channelId);
    if (c.guild_id !== null)
      throw DomainError.invalid("channel_id", "Only direct messages are end-to-end encrypted", "CHANNEL_TYPE_INVALID");
    return this.db
      .query(
        `SELECT ${DEVICE_COLUMNS("d")} FROM devices d JOIN dm_recipients r ON r.user_id = d.user_id WHERE r.channel_id = ? ORDER BY d.user_id, d.id`,
      )
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
