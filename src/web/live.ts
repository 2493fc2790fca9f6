/**
 * The client side of the live connection: hello with the session token in the first
 * frame, a ping every 25 s, and on a dropped connection a reconnect that resumes from
 * the last event seen. When the server cannot resume (ready with resumed false), the
 * client reads everything afresh. When the session ends (4001), it stops and tells the
 * person why, as the close frame's reason says.
 */
import { storedToken } from "./api";
import { retireDevice } from "./device";
import { applyEvent } from "./events";
import { loadAll } from "./load";
import { followStartLink } from "./links";
import { loadNotifySettings } from "./notify";
import { liveState, me, showNotice } from "./state";
import { sessionEndedMessage } from "./session-ended";
import type { Me } from "./types";

const PING_MS = 25_000;
const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000];

interface Frame {
  op: string;
  seq?: number;
  type?: string;
  data?: unknown;
  stream?: string;
  resumed?: boolean;
  user?: Me;
}

export class LiveClient {
  private ws: WebSocket | null = null;
  private stream: string | null = null;
  private seq = 0;
  private attempts = 0;
  private ping: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  /** Events that arrive while a fresh load runs are applied after it, in order. */
  private held: Frame[] | null = null;

  /** `onEnded`: the session ended (the connection closed with 4001), once the person has been told why. */
  constructor(private readonly onEnded: () => void = () => undefined) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.ping) clearInterval(this.ping);
    this.ws?.close(1000, "Signed out");
    this.ws = null;
  }

  private connect(): void {
    const token = storedToken();
    if (!token || this.stopped) return;
    liveState.value = "connecting";
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/client/v1/live`);
    this.ws = ws;
    ws.onopen = () => {
      const resume = this.stream ? { stream: this.stream, seq: this.seq } : undefined;
      ws.send(JSON.stringify({ op: "hello", token, resume }));
    };
    ws.onmessage = (ev) => this.frame(JSON.parse(String(ev.data)) as Frame);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.ping) clearInterval(this.ping);
      liveState.value = "offline";
      if (ev.code === 4001) return this.ended(ev.reason);
      if (this.stopped) return;
      const wait = BACKOFF_MS[Math.min(this.attempts++, BACKOFF_MS.length - 1)];
      setTimeout(() => this.connect(), wait);
    };
  }

  /** The session ended (or the hello was refused): no reconnecting with this token; the person is told why. */
  private ended(reason: string): void {
    liveState.value = "ended";
    const why = sessionEndedMessage(reason);
    if (reason === "device_removed") retireDevice(why);
    showNotice(why);
    this.onEnded();
  }

  private frame(f: Frame): void {
    if (f.op === "ready") return void this.ready(f);
    if (f.op !== "event" || typeof f.seq !== "number") return;
    if (f.seq <= this.seq) return; // already seen (a replay overlapping what arrived)
    this.seq = f.seq;
    if (this.held) this.held.push(f);
    else applyEvent(f.type!, f.data);
  }

  private async ready(f: Frame): Promise<void> {
    this.attempts = 0;
    liveState.value = "online";
    if (f.user) me.value = f.user;
    if (this.ping) clearInterval(this.ping);
    this.ping = setInterval(() => this.ws?.readyState === WebSocket.OPEN && this.ws.send('{"op":"ping"}'), PING_MS);
    if (f.resumed && f.stream === this.stream) return;
    // A fresh stream: what was missed cannot be replayed, so read it all again.
    this.stream = f.stream ?? null;
    this.seq = f.seq ?? 0;
    this.held = [];
    try {
      await loadAll();
      void followStartLink();
      void loadNotifySettings();
    } finally {
      const held = this.held ?? [];
      this.held = null;
      for (const h of held) applyEvent(h.type!, h.data);
    }
  }
}
