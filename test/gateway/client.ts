/**
 * A minimal gateway client for tests over a real socket: it records every frame, lets a
 * test wait for one, and `sync()` proves that nothing else is in flight (the server
 * answers frames in order, so an ACK arriving means every earlier dispatch arrived).
 */
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { INTENTS } from "../../src/core/permissions";

export interface Frame {
  op: number;
  d: any;
  s: number | null;
  t: string | null;
}

const WAIT_LIMIT_MS = 3000;

export class Gw {
  frames: Frame[] = [];
  private taken = 0;
  private listeners = new Set<() => void>();
  closed: Promise<{ code: number; reason: string }>;
  isClosed = false;
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (m) => {
      this.frames.push(JSON.parse(String(m.data)));
      for (const l of [...this.listeners]) l();
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = (ev) => {
        this.isClosed = true;
        this.closeCode = ev.code;
        resolve({ code: ev.code, reason: ev.reason });
        for (const l of [...this.listeners]) l();
      };
    });
  }

  static async open(p: Parley, url = p.api.urls.gateway): Promise<Gw> {
    const ws = new WebSocket(url);
    const gw = new Gw(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("gateway socket failed to open"));
    });
    await gw.next((f) => f.op === 10);
    return gw;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The first frame not yet taken that matches; waits for it (rejects if it never comes or the socket closes). */
  next(pred: (f: Frame) => boolean = () => true): Promise<Frame> {
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
          reject(new Error(`socket closed (${this.closeCode}) while waiting; frames: ${this.summary()}`));
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

  dispatch(t: string): Promise<Frame> {
    return this.next((f) => f.op === 0 && f.t === t);
  }

  /** Heartbeat and wait for its ACK: afterwards every frame the server sent before is here. */
  async sync(seq: number | null = null): Promise<void> {
    this.send({ op: 1, d: seq });
    await this.next((f) => f.op === 11);
  }

  dispatches(t?: string): Frame[] {
    return this.frames.filter((f) => f.op === 0 && (t === undefined || f.t === t));
  }

  get lastSeq(): number {
    let s = 0;
    for (const f of this.frames) if (f.op === 0 && f.s! > s) s = f.s!;
    return s;
  }

  async identify(token: string, intents: number): Promise<Frame> {
    this.send({ op: 2, d: { token, intents, properties: { os: "linux", browser: "test", device: "test" } } });
    return this.dispatch("READY");
  }

  close(): Promise<unknown> {
    if (!this.isClosed) this.ws.close(1000);
    return this.closed;
  }

  summary(): string {
    return this.frames.map((f) => (f.op === 0 ? `${f.t}#${f.s}` : `op${f.op}`)).join(",");
  }
}

export const I = INTENTS;

/** Bots with different grants, in one guild with two people. */
export const GATEWAY_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }],
  guilds: [
    { name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "staff" }] },
    { name: "Annex", owner: "alice", members: ["carol"], channels: [{ name: "lobby" }] },
  ],
  applications: [
    {
      name: "AllBot",
      owner: "alice",
      intents: [
        "GUILDS",
        "GUILD_MEMBERS",
        "GUILD_PRESENCES",
        "GUILD_MESSAGES",
        "GUILD_MESSAGE_REACTIONS",
        "GUILD_MESSAGE_TYPING",
        "DIRECT_MESSAGES",
        "DIRECT_MESSAGE_REACTIONS",
        "DIRECT_MESSAGE_TYPING",
        "MESSAGE_CONTENT",
      ],
      approved_privileged: ["GUILD_MEMBERS", "GUILD_PRESENCES", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    {
      // Asks for MESSAGE_CONTENT but no administrator approved it: the token lacks it.
      name: "PlainBot",
      owner: "bob",
      intents: ["GUILDS", "GUILD_MESSAGES", "DIRECT_MESSAGES", "GUILD_MESSAGE_REACTIONS", "GUILD_MESSAGE_TYPING", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

export const ALL_GRANT =
  I.GUILDS |
  I.GUILD_MEMBERS |
  I.GUILD_PRESENCES |
  I.GUILD_MESSAGES |
  I.GUILD_MESSAGE_REACTIONS |
  I.GUILD_MESSAGE_TYPING |
  I.DIRECT_MESSAGES |
  I.DIRECT_MESSAGE_REACTIONS |
  I.DIRECT_MESSAGE_TYPING |
  I.MESSAGE_CONTENT;
export const PLAIN_GRANT = I.GUILDS | I.GUILD_MESSAGES | I.DIRECT_MESSAGES | I.GUILD_MESSAGE_REACTIONS | I.GUILD_MESSAGE_TYPING;

export interface World {
  w: SeedAnswer;
  uuid(flake: string): string;
  person(name: string): string;
  channel(guild: string, name: string): string;
  guild(name: string): string;
  app(name: string): string;
  botUser(name: string): string;
}

export function seedGatewayWorld(p: Parley): World {
  const w = p.seed(structuredClone(GATEWAY_WORLD));
  const uuid = (flake: string) => {
    const u = p.api.flakes.uuid(flake);
    if (!u) throw new Error(`unknown flake ${flake}`);
    return u;
  };
  return {
    w,
    uuid,
    person: (n) => uuid(w.users[n].id),
    channel: (g, n) => uuid(w.guilds[g].channels[n]),
    guild: (g) => uuid(w.guilds[g].id),
    app: (a) => uuid(w.applications[a].id),
    botUser: (a) => uuid(w.applications[a].bot_user_id),
  };
}
