export {};
// Child process of the message post bench: holds gateway sessions and counts the
// MESSAGE_CREATE frames they receive (found without parsing them), so the server
// process measured does only server work. Parley sessions IDENTIFY (GUILDS |
// GUILD_MESSAGES) and heartbeat; raw sockets (the ceiling) just listen.
// Prints {"ready":true} once every session is ready, then {"frames":N} for every line
// read on stdin (and their total length in bytes).
//   bun listener.ts <ws url> parley <token,token,...>
//   bun listener.ts <ws url> raw <count>
const [url, kind, list] = process.argv.slice(2);
let frames = 0;
let bytes = 0;
const timers: ReturnType<typeof setInterval>[] = [];

function open(identify: string | null): Promise<void> {
  return new Promise((ready, fail) => {
    const ws = new WebSocket(url);
    const deadline = setTimeout(() => fail(new Error("no READY within 15 s")), 15_000);
    let seq: number | null = null;
    ws.onerror = () => fail(new Error(`socket to ${url} failed`));
    ws.onopen = () => {
      if (identify) return;
      clearTimeout(deadline);
      ready();
    };
    ws.onmessage = (ev) => {
      const data = String(ev.data);
      if (data.includes('"t":"MESSAGE_CREATE"')) {
        frames++;
        bytes += data.length;
        return;
      }
      if (!identify) return;
      const f = JSON.parse(data) as { op: number; t: string | null; s: number | null; d: any };
      if (f.s !== null) seq = f.s;
      if (f.op === 10) {
        timers.push(setInterval(() => ws.send(JSON.stringify({ op: 1, d: seq })), f.d.heartbeat_interval * 0.9));
        ws.send(identify);
      } else if (f.op === 0 && f.t === "READY") {
        clearTimeout(deadline);
        ready();
      }
    };
  });
}

const identifies =
  kind === "parley"
    ? list.split(",").map((token) =>
        JSON.stringify({
          op: 2,
          d: { token, intents: (1 << 0) | (1 << 9), properties: { os: "linux", browser: "bench", device: "bench" } },
        }),
      )
    : Array.from({ length: Number(list) }, () => null);
await Promise.all(identifies.map(open));
await Bun.sleep(300); // READY's GUILD_CREATE frames drain before anything is counted
console.log(JSON.stringify({ ready: true }));
for await (const _ of console) console.log(JSON.stringify({ frames, bytes }));
