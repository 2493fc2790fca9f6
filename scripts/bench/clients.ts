/**
 * The client side of the fan-out benches (gateway.ts, live.ts): WebSockets in a child
 * process of their own (this file, run by `Clients`) that count frames and their length
 * (O(1) on a string) without parsing them, for Parley and the raw ceiling alike, so the
 * server process measured does only server work. The child reports over IPC, which adds
 * the same small delay to both sides' latencies.
 */

type ToClient = { connect: string; first: (string | null)[] } | { until: number } | { close: true };
type FromClient = { connected: true } | { reached: number; bytes: number };

const CONNECT_BATCH = 100;

function clientMain() {
  const sockets: WebSocket[] = [];
  let received = 0;
  let bytes = 0;
  let until = Infinity;
  const reply = (m: FromClient) => process.send!(m);
  const onFrame = (ev: MessageEvent) => {
    bytes += (ev.data as string).length;
    if (++received >= until) {
      until = Infinity;
      reply({ reached: received, bytes });
    }
  };
  const open = (url: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error("socket failed"));
      ws.onmessage = onFrame;
    });
  process.on("message", async (m: ToClient) => {
    if ("connect" in m) {
      for (let i = 0; i < m.first.length; i += CONNECT_BATCH) {
        const batch = await Promise.all(
          m.first.slice(i, i + CONNECT_BATCH).map(async (frame) => {
            const ws = await open(m.connect);
            if (frame) ws.send(frame);
            return ws;
          }),
        );
        sockets.push(...batch);
      }
      reply({ connected: true });
    } else if ("until" in m) {
      if (received >= m.until) reply({ reached: received, bytes });
      else until = m.until;
    } else {
      for (const ws of sockets) ws.close();
      process.exit(0);
    }
  });
}

/** One child process of clients; `expect(n)` resolves once they have received n more frames in all. */
export class Clients {
  private proc: ReturnType<typeof Bun.spawn>;
  private waiting: { total: number; resolve: () => void } | null = null;
  private connected: (() => void) | null = null;
  expected = 0;
  /** Frame and byte counts at the last report: the measured frames' mean size follows from two of them. */
  frames = 0;
  bytes = 0;

  constructor() {
    this.proc = Bun.spawn([process.execPath, import.meta.path], {
      stdio: ["ignore", "inherit", "inherit"],
      ipc: (m: FromClient) => {
        if ("connected" in m) return this.connected?.();
        this.frames = m.reached;
        this.bytes = m.bytes;
        if (!this.waiting || m.reached < this.waiting.total) return;
        const w = this.waiting;
        this.waiting = null;
        w.resolve();
      },
    });
  }

  /** Open one socket per entry of `first` (in batches), each sending that frame first when there is one (IDENTIFY, a live hello). */
  connect(url: string, first: (string | null)[]): Promise<void> {
    return new Promise((resolve) => {
      this.connected = resolve;
      this.proc.send({ connect: url, first } satisfies ToClient);
    });
  }

  /** Wait until `n` more frames than so far expected have arrived (at most `timeoutMs`). */
  expect(n: number, timeoutMs = 30_000): Promise<void> {
    this.expected += n;
    const total = this.expected;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out waiting for frame ${total}`)), timeoutMs);
      this.waiting = {
        total,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      };
      this.proc.send({ until: total } satisfies ToClient);
    });
  }

  async close(): Promise<void> {
    this.proc.send({ close: true } satisfies ToClient);
    await this.proc.exited;
  }
}

if (import.meta.main) clientMain();
