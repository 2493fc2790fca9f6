/**
 * Wire constants of the gateway (spec 6.1, 8.2). Frames are built as strings so that a
 * payload serialized once can be framed per session by concatenation, not re-stringified.
 */
export const OP = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  PRESENCE_UPDATE: 3,
  VOICE_STATE_UPDATE: 4,
  RESUME: 6,
  REQUEST_GUILD_MEMBERS: 8,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const;

export const HEARTBEAT_INTERVAL_MS = 41_250;
/** Spec 3.2: 2.5 x heartbeat_interval, counted from HELLO and re-armed by each heartbeat. */
export const ZOMBIE_TIMEOUT_MS = Math.round(2.5 * HEARTBEAT_INTERVAL_MS);
export const FIRST_FRAME_DEADLINE_MS = 30_000;
export const SESSION_TTL_MS = 5 * 60_000;
export const REPLAY_RING = 1000;
/** The reference platform refuses gateway payloads over 4096 bytes; leave headroom for IDENTIFY's optional fields. */
export const MAX_INBOUND_BYTES = 16 * 1024;

/**
 * Bytes Bun may buffer for a socket whose client does not read; past it the socket is
 * closed (its session stays resumable). A RESUME's replay of a full ring of ordinary
 * messages fits well within it.
 */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Frames a socket may send before IDENTIFY or RESUME (libraries heartbeat once or twice); more ends it with op 9. */
export const MAX_FRAMES_BEFORE_IDENTIFY = 8;
/**
 * Live and resumable sessions kept per application. A new IDENTIFY past it forgets the
 * oldest resumable one; with every one of them live, the IDENTIFY is refused (op 9).
 */
export const MAX_SESSIONS_PER_APP = 32;

export const CLOSE_PLAIN = 1000;
export const CLOSE_HEARTBEAT_TIMEOUT = 4000;
/** 4000 as the reference names it in general: "unknown error", reconnect and RESUME (the store could not answer). */
export const CLOSE_UNKNOWN_ERROR = 4000;
export const CLOSE_DISALLOWED_INTENTS = 4014;

/** Host milliseconds between the upgrade and HELLO, so the two never share a write (connection.ts). */
export const HELLO_DELAY_MS = 1;

export function helloFrame(heartbeatIntervalMs: number): string {
  return JSON.stringify({ op: OP.HELLO, d: { heartbeat_interval: heartbeatIntervalMs }, s: null, t: null });
}
export const HELLO_FRAME = helloFrame(HEARTBEAT_INTERVAL_MS);
export const ACK_FRAME = JSON.stringify({ op: OP.HEARTBEAT_ACK, d: null, s: null, t: null });
/** Op 9 is always d false: there is no resumable variant (spec 6.1). */
export const INVALID_SESSION_FRAME = JSON.stringify({ op: OP.INVALID_SESSION, d: false, s: null, t: null });

/** A dispatch frame around an already-serialized payload. */
export function dispatchFrame(t: string, s: number, d: string): string {
  return `{"op":0,"s":${s},"t":"${t}","d":${d}}`;
}
