/**
 * Transcripts for snapshot tests: the entries with what varies from run to run taken out
 * (heartbeats and HELLO, session ids, nonces, the server's address; ids too on request),
 * one line per entry. In a world with a start time ids and times repeat run after run,
 * so the lines do too.
 */
import type { TranscriptEntry } from "./wire-types.js";

export interface SnapshotOptions {
  /** "keep" (the default: stable in a world with a start time) or "placeholders": <id:1>, <id:2>... in order of appearance. */
  ids?: "keep" | "placeholders";
  /** Keep each entry's time (the default). */
  times?: boolean;
}

/** Gateway ops that only keep a connection alive: HELLO, heartbeats and their ACKs. */
const NOISE_OPS = new Set([1, 10, 11]);

export function snapshotText(entries: TranscriptEntry[], baseUrl: string, o: SnapshotOptions = {}): string {
  const sessions = new Map<string, string>();
  const session = (id: string) => {
    if (!sessions.has(id)) sessions.set(id, `S${sessions.size + 1}`);
    return sessions.get(id)!;
  };
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind === "gateway" && e.op !== null && NOISE_OPS.has(e.op)) continue;
    const at = o.times === false ? "" : `${e.at} `;
    if (e.kind === "rest") {
      lines.push(`${at}rest ${e.method} ${e.path} -> ${e.status} ${stable({ request: e.request, response: e.response }, session)}`);
    } else {
      const what = e.op === 0 ? `${e.t} s=${e.s}` : `op ${e.op}`;
      lines.push(
        `${at}gateway ${e.direction === "in" ? "bot->parley" : "parley->bot"} ${session(e.session_id)} ${what} ${stable(e.d, session)}`,
      );
    }
  }
  let text = lines.join("\n").split(baseUrl).join("<base>").split(baseUrl.replace(/^http/, "ws")).join("<gateway-base>");
  if (o.ids === "placeholders") {
    const ids = new Map<string, string>();
    text = text.replace(/\b\d{17,20}\b/g, (id) => {
      if (!ids.has(id)) ids.set(id, `<id:${ids.size + 1}>`);
      return ids.get(id)!;
    });
  }
  return text + (lines.length ? "\n" : "");
}

/** JSON with session ids named by order and nonces blanked. */
function stable(v: unknown, session: (id: string) => string): string {
  return JSON.stringify(v, (key, value) => {
    if (key === "session_id" && typeof value === "string") return session(value);
    if (key === "nonce" && value !== null && value !== undefined) return "<nonce>";
    return value;
  });
}
