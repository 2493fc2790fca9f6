/** The harness's own shapes (docs/harness.md), as the SDK's types name them. */

/** The seed's answer (docs/harness.md): the snowflakes and secrets of everything created. */
export interface SeedAnswer {
  users: Record<string, { id: string; token: string }>;
  guilds: Record<string, { id: string; channels: Record<string, string>; roles: Record<string, string> }>;
  applications: Record<string, { id: string; bot_user_id: string; token: string; public_key: string }>;
}

/** A message as the harness shows it: the bot API's shape, full content. */
export interface HarnessMessage {
  id: string;
  channel_id: string;
  author: { id: string; username: string; bot: boolean };
  content: string;
  embeds: any[];
  components: any[];
  flags: number;
  message_reference?: { message_id: string; channel_id: string; guild_id?: string };
  [key: string]: unknown;
}

export interface HarnessEvent {
  t: string;
  d: any;
  application_id: string;
  session_id: string;
  [key: string]: unknown;
}

/** One transcript entry (docs/harness.md "Transcripts"). */
export type TranscriptEntry =
  | {
      at: string;
      kind: "rest";
      method: string;
      route: string;
      path: string;
      status: number;
      request: unknown;
      response: unknown;
      /** The fault that answered instead of the route, if one did. */
      fault?: string;
      /** The latency faults that delayed the request, if any did. */
      delayed_by?: string[];
    }
  | {
      at: string;
      kind: "gateway";
      session_id: string;
      direction: "in" | "out";
      op: number | null;
      t: string | null;
      s: number | null;
      d: any;
    };

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Where the event log and the transcripts stood: read only what comes after. */
export interface Cursor {
  events: string;
  transcript: string;
}

export class HarnessError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
    /** Why it was refused, when the SDK knows more than the answer says (the world was reset under the test). */
    note?: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body)}${note ? `\n${note}` : ""}`);
    this.name = "HarnessError";
  }
}
