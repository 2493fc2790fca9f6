/**
 * The operator's log: one line per request and per gateway connection, plus start-up and
 * shutdown notes. pino, because it is the most used and best kept JSON logger for Node
 * and Bun, and works inside the compiled executable as long as no transport is used:
 * transports run in a worker thread that cannot load its module there, so the
 * destination is our own batching writer to stdout (below: it writes what waits at
 * exit, so nothing is lost when the process ends right after), and "pretty" is a small
 * formatter of our own in front of it rather than pino-pretty's transport.
 *
 * pino is loaded when first needed, or just after the server's first answer (warm()):
 * loading it costs a few milliseconds the start-up path does without. Lines logged
 * before that wait in a short queue, in order.
 *
 * What a line may carry is fixed here: method, route template (never the path itself,
 * which can hold webhook and interaction tokens), status, duration, the application's
 * snowflake or the person's id. Never a token, a password or a message body.
 */
import type pinoModule from "pino";
import { writeSync } from "node:fs";
import type { LogLevel } from "../config";

export interface RequestLine {
  /** Which door: "bot" (/api/v10), "people" (/api/client/v1), "harness", "ops". */
  surface: string;
  method: string;
  /** The route template, e.g. /api/v10/channels/{channel_id}/messages. */
  route: string;
  status: number;
  ms: number;
  /** The application's snowflake, for bot API requests with a valid token. */
  app?: string | null;
  /** The person's internal id, for the people's API with a session. */
  person?: string | null;
}

export interface ConnectionLine {
  conn: number;
  /** How the socket's last session began, if it got that far. */
  how: "identify" | "resume" | null;
  app: string | null;
  session: string | null;
  /** The close code the server sent; null when the client closed (or vanished). */
  code: number | null;
  ms: number;
}

export interface Logger {
  readonly level: LogLevel;
  /** Load pino now (and write what waited); until then lines queue if deferred. */
  warm(): void;
  /** Queue lines instead of loading pino on the first one (a server about to answer its first request). */
  defer(): void;
  request(r: RequestLine): void;
  connection(c: ConnectionLine): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Where lines go: a function taking one whole line (tests capture it). Default: stdout, in batches. */
export type LineSink = (line: string) => void;

/** Lines wait in this buffer (bytes), at most this many milliseconds, before they are written. */
const STDOUT_BATCH = 16 * 1024;
const STDOUT_WAIT_MS = 50;
const encoder = new TextEncoder();
/** Lines waiting, joined only when written (a rope until then). */
let waiting = "";
let scheduled = false;
let exitHooked = false;

function flushStdout(): void {
  scheduled = false;
  if (!waiting) return;
  const bytes = encoder.encode(waiting);
  waiting = "";
  writeAll(bytes);
}

/** All of `bytes` to stdout; a stdout that is gone (EPIPE) or stays full loses the log, never the server. */
function writeAll(bytes: Uint8Array): void {
  let done = 0;
  let full = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(1, bytes, done, bytes.length - done);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN" && ++full < 1000) continue;
      return;
    }
  }
}

/**
 * stdout, written in batches: a write per line (a system call, and a wake-up of whatever
 * reads the pipe) cost more than the request it describes, and even one write per turn
 * of the event loop was a third of a cheap request's time under load. Lines wait at
 * most 50 ms or until about 16 KiB wait (a quarter of a pipe's buffer, so a write seldom
 * waits for the reader), appended to one string that is encoded once per write; what
 * waits is written at exit (process "exit" follows a normal end, a handled signal and an
 * uncaught error alike; only a SIGKILL loses the last 50 ms).
 */
const stdout: LineSink = (line) => {
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", flushStdout);
  }
  waiting += line;
  if (waiting.length >= STDOUT_BATCH) return flushStdout();
  if (!scheduled) {
    scheduled = true;
    setTimeout(flushStdout, STDOUT_WAIT_MS).unref();
  }
};

type Pino = pinoModule.Logger;
type Call = [level: "info" | "warn" | "error", fields: Record<string, unknown>, msg: string];

export function createLogger(opts: { level: LogLevel; format: "pretty" | "json"; sink?: LineSink }): Logger {
  const sink = opts.sink ?? stdout;
  const write = opts.format === "json" ? sink : (line: string) => sink(pretty(line));
  const enabled = (level: LogLevel) => LOG_ORDER.indexOf(level) >= LOG_ORDER.indexOf(opts.level);
  const requests = enabled("info");
  let log: Pino | null = null;
  let deferred = false;
  const queue: Call[] = [];
  const warm = () => {
    if (log) return;
    // require(): evaluated here, on first use, not when the executable starts.
    const pino = require("pino") as typeof pinoModule;
    log = pino(
      {
        level: opts.level,
        base: undefined,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      { write },
    );
    for (const [level, fields, msg] of queue.splice(0)) log[level](fields, msg);
  };
  let exitHooked = false;
  const emit = (level: Call[0], fields: Record<string, unknown>, msg: string) => {
    if (!enabled(level)) return;
    if (!log && deferred && queue.length < 10_000) {
      // A server stopped (or failing) before its first answer warmed pino: what waits is still written.
      if (!exitHooked) {
        exitHooked = true;
        process.once("exit", () => {
          warm();
          flushStdout();
        });
      }
      return void queue.push([level, fields, msg]);
    }
    warm();
    log![level](fields, msg);
  };
  return {
    level: opts.level,
    warm,
    defer: () => (deferred = true),
    request(r) {
      if (!requests) return;
      // The pretty request line is ours from end to end: written directly, it skips
      // pino's JSON and parsing that JSON back, most of a line's cost. Once pino is
      // loaded (or not deferred), so that it keeps its place after queued lines.
      if (opts.format === "pretty" && (log || !deferred))
        return void sink(prettyRequest(isoNow(), "info", r.method, r.route, r.status, round(r.ms), (r.app ?? r.person) ? r : null));
      const fields: Record<string, unknown> = { surface: r.surface, method: r.method, route: r.route, status: r.status, ms: round(r.ms) };
      if (r.app) fields.app = r.app;
      if (r.person) fields.person = r.person;
      emit("info", fields, "request");
    },
    connection(c) {
      if (!requests) return;
      emit("info", { conn: c.conn, how: c.how, app: c.app, session: c.session, code: c.code, ms: Math.round(c.ms) }, "gateway");
    },
    info: (msg, fields) => emit("info", fields ?? {}, msg),
    warn: (msg, fields) => emit("warn", fields ?? {}, msg),
    error: (msg, fields) => emit("error", fields ?? {}, msg),
  };
}

const LOG_ORDER: LogLevel[] = ["trace", "debug", "info", "warn", "error", "silent"];

const round = (ms: number) => Math.round(ms * 100) / 100;

const TAGS: Record<string, string> = {};
/** "info" -> "INFO ": the level as a column of five. */
const levelTag = (level: string) => (TAGS[level] ??= level.toUpperCase().padEnd(5));

let lastMs = 0;
let lastIso = "";
/** The time as pino writes it; made once per millisecond, as a busy server logs many lines in one. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** A request line as `pretty` writes it: time, level, method, route template, status, duration, who. */
function prettyRequest(
  time: string,
  level: string,
  method: unknown,
  route: unknown,
  status: unknown,
  ms: unknown,
  by: { app?: unknown; person?: unknown } | null,
): string {
  const who = by?.app ? ` app=${by.app}` : by?.person ? ` person=${by.person}` : "";
  return `${time.slice(11, 23)} ${levelTag(level)} ${method} ${route} ${status} ${ms}ms${who}\n`;
}

/** A JSON line as one readable line: time, level, then the message's own words. */
export function pretty(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  const { time, level, msg, ...rest } = o;
  const head = `${String(time ?? "").slice(11, 23)} ${levelTag(String(level ?? ""))}`;
  if (msg === "request") return prettyRequest(String(time ?? ""), String(level ?? ""), rest.method, rest.route, rest.status, rest.ms, rest);
  if (msg === "gateway") {
    const end = rest.code === null ? "closed by the client" : `closed ${rest.code}`;
    const who = rest.app ? ` app=${rest.app} session=${rest.session} (${rest.how})` : " (no session)";
    return `${head} GATEWAY conn ${rest.conn} ${end} after ${rest.ms}ms${who}\n`;
  }
  const extra = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  return `${head} ${msg}${extra ? ` ${extra}` : ""}\n`;
}
