/**
 * A person's live connection for tests over a real socket: it records every frame, lets a
 * test wait for one, and `sync()` proves nothing else is in flight (the server answers a
 * ping after everything it sent before).
 */
import type { Parley } from "../../src/app";

export interface LiveFrame {
  op: string;
  seq?: number;
  type?: string;
  data?: any;
  stream?: string;
  resumed?: boolean;
  user?: any;
}

const WAIT_LIMIT_MS = 3000;

export class LiveConn {
  frames: LiveFrame[] = [];
  private taken = 0;
  private listeners = new Set<() => void>();
  readonly closed: Promise<{ code: number; reason: string }>;
  isClosed = false;

  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (m) => {
      this.frames.push(JSON.parse(String(m.data)));
      for (const l of [...this.listeners]) l();
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = (ev) => {
        this.isClosed = true;
        resolve({ code: ev.code, reason: ev.reason });
        for (const l of [...this.listeners]) l();
      };
    });
  }

  static async open(p: Parley): Promise<LiveConn> {
    const ws = new WebSocket(`${p.api.urls.base.replace(/^http/, "ws")}/api/client/v1/live`);
    const c = new LiveConn(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("live socket failed to open"));
    });
    return c;
  }

  /** Open, say hello with a session token (and a resume), and wait for ready. */
  static async hello(p: Parley, token: string, resume?: { stream: string; seq: number }): Promise<{ c: LiveConn; ready: LiveFrame }> {
    const c = await LiveConn.open(p);
    c.send({ op: "hello", token, resume });
    return { c, ready: await c.next((f) => f.op === "ready") };
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  next(pred: (f: LiveFrame) => boolean = () => true): Promise<LiveFrame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = this.taken; i < this.frames.length; i++) {
          if (pred(this.frames[i])) {
            this.taken = i + 1;
            cleanup();
            resolve(this.frames[i]);
            return true;
          }
        }
        if (this.isClosed) {
          cleanup();
          reject(new Error(`socket closed while waiting; frames: ${this.summary()}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`frame not received; frames: ${this.summary()}`));
      }, WAIT_LIMIT_MS);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = () => void check();
      if (!check()) this.listeners.add(listener);
    });
  }

  event(type: string, pred: (data: any) => boolean = () => true): Promise<LiveFrame> {
    return this.next((f) => f.op === "event" && f.type === type && pred(f.data));
  }

  /** Ping and wait for the pong: every frame the server sent before is here. */
  async sync(): Promise<void> {
    this.send({ op: "ping" });
    await this.next((f) => f.op === "pong");
  }

  /** Event types received so far, in order. */
  events(): string[] {
    return this.frames.filter((f) => f.op === "event").map((f) => f.type!);
  }

  get lastSeq(): number {
    return Math.max(0, ...this.frames.map((f) => f.seq ?? 0));
  }

  close(): Promise<unknown> {
    if (!this.isClosed) this.ws.close(1000);
    return this.closed;
  }

  summary(): string {
    return this.frames.map((f) => (f.op === "event" ? `${f.type}#${f.seq}` : f.op)).join(",");
  }
}

/** Wait until the server counts `n` open live connections (closing is asynchronous). */
export async function liveConnections(p: Parley, n: number): Promise<void> {
  for (let i = 0; i < 300 && p.live.connections() !== n; i++) await Bun.sleep(10);
  if (p.live.connections() !== n) throw new Error(`expected ${n} live connections, have ${p.live.connections()}`);
}
