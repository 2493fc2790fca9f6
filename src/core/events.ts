/**
 * Domain events, published on the bus after the transaction that caused them commits.
 * They carry internal ids only; the gateway reads current state (and, for deletions,
 * the snapshot carried here) to build frames.
 */
import type { Channel, Overwrite } from "./models";
import { reportToStderr, type Report } from "./report";
import type { CommitOrder } from "../store/relay";

export type { CommitOrder } from "../store/relay";

/** Why a member left a server. */
export type MemberRemoval = "left" | "kicked" | "banned";

export type DomainEvent =
  | { type: "guild.created"; guildId: string }
  | { type: "guild.updated"; guildId: string }
  | { type: "guild.deleted"; guildId: string; memberIds: string[] }
  | { type: "member.added"; guildId: string; userId: string }
  | { type: "member.updated"; guildId: string; userId: string }
  /** `cause`: why, for the person's own pages (they left, or were kicked or banned). */
  | { type: "member.removed"; guildId: string; userId: string; cause?: MemberRemoval }
  | { type: "channel.created"; channelId: string; guildId: string | null }
  | { type: "channel.updated"; channelId: string; guildId: string | null }
  | { type: "channel.deleted"; channelId: string; guildId: string | null; snapshot: { channel: Channel; overwrites: Overwrite[] } }
  /** A person closed a DM: it left their list (core/dms.ts). */
  | { type: "dm.closed"; channelId: string; userId: string }
  /** A DM its recipients had closed is back in their lists: a new message, or opened again. */
  | { type: "dm.reopened"; channelId: string; userIds: string[] }
  | { type: "role.created"; guildId: string; roleId: string }
  | { type: "role.updated"; guildId: string; roleId: string }
  | { type: "role.deleted"; guildId: string; roleId: string }
  | { type: "message.created"; messageId: string; channelId: string; guildId: string | null }
  | { type: "message.updated"; messageId: string; channelId: string; guildId: string | null }
  | { type: "message.deleted"; messageId: string; channelId: string; guildId: string | null; ephemeralUserId: string | null }
  | {
      type: "reaction.added" | "reaction.removed";
      messageId: string;
      channelId: string;
      guildId: string | null;
      userId: string;
      emoji: { name: string | null; id: string | null; animated: boolean };
      messageAuthorId: string;
    }
  | { type: "typing.started"; channelId: string; guildId: string | null; userId: string; at: number }
  | { type: "presence.updated"; userId: string; status: string }
  | {
      type: "interaction.created";
      interactionId: string;
      applicationId: string;
      /**
       * The plaintext token for the INTERACTION_CREATE payload. Only its hash is stored, so
       * the node that holds the bot's session (another one, in a cluster) gets it here.
       */
      token: string;
    }
  /** The bot acknowledged (deferred) or answered an interaction: the invoking person's client shows it. */
  | {
      type: "interaction.updated";
      interactionId: string;
      applicationId: string;
      userId: string;
      channelId: string;
      state: "deferred" | "responded";
    }
  | { type: "read_state.updated"; userId: string; channelId: string }
  /** A person changed how a server, channel or DM notifies them: their other sessions follow (never dispatched to bots, spec 6.2). */
  | { type: "notification_settings.updated"; userId: string; scopeId: string }
  /** A person's device appeared or was removed: they and everyone they share a DM with hear it. */
  | { type: "device.added" | "device.removed"; deviceId: string; userId: string }
  /**
   * Credentials that end or grants that narrow. Like every event, heard by the server
   * whichever process wrote it (store/relay.ts). Sessions of the application end; on
   * intents_changed, those whose IDENTIFY intents are no longer granted.
   */
  | { type: "application.token_rotated"; applicationId: string }
  | { type: "application.intents_changed"; applicationId: string }
  | { type: "application.deleted"; applicationId: string; botUserId: string }
  | { type: "application.disabled"; applicationId: string }
  /** People's sessions ended: their live connections close, saying why. */
  | { type: "person.sessions_ended"; userId: string; sessionIds: string[]; reason: SessionEndReason }
  | { type: "world.reset" };

export type EventType = DomainEvent["type"];

/**
 * Why a person's sessions ended, as the live connection's close frame says it
 * (docs/people-api.md "Close codes"), so a client can tell the person: they signed out
 * (here, or everywhere), revoked it from another session, changed their password (the
 * other sessions), removed the device the session held; it expired; the operator reset
 * their password, disabled or deleted their account.
 */
export const SESSION_END_REASONS = [
  "signed_out",
  "signed_out_everywhere",
  "revoked",
  "password_changed",
  "device_removed",
  "expired",
  "password_reset",
  "disabled",
  "deleted",
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

type Handler = (e: DomainEvent) => void;

/** A process whose commits are not numbered (SQLite: one node, which needs no order across nodes). */
const UNNUMBERED: CommitOrder = { through: () => 0, since: () => 0 };

export class EventBus {
  private handlers: Handler[] = [];
  /**
   * While subscribers run: the number of the commit whose events they are hearing, in the
   * order of every node's commits on one Postgres database (store/pg/relay.ts); 0 on
   * SQLite, and for events no commit carried (a world reset). A gateway session taken
   * over from another node is handed what it missed by these numbers (gateway/shared-sessions.ts).
   */
  at = 0;

  constructor(
    /** Told of a subscriber that threw (core/report.ts). */
    private readonly report: Report = reportToStderr,
    /** Up to where, and since where, this process has published every numbered commit. */
    readonly order: CommitOrder = UNNUMBERED,
  ) {}

  subscribe(h: Handler): () => void {
    this.handlers.push(h);
    return () => {
      this.handlers = this.handlers.filter((x) => x !== h);
    };
  }

  /** `at`: the number of the commit that carried them (0: none). */
  publish(events: DomainEvent[], at = 0): void {
    // A subscriber's own write publishes inside this one: its number is its own while it runs.
    const outer = this.at;
    this.at = at;
    try {
      for (const e of events) {
        for (const h of this.handlers) {
          try {
            h(e);
          } catch (err) {
            // A failing subscriber must not stop the others or the writer that committed.
            this.report(err, { event: e.type });
          }
        }
      }
    } finally {
      this.at = outer;
    }
  }
}
