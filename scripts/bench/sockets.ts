// Child process of scripts/bench/growth.ts: holds many idle WebSockets to a server.
// Parley: each socket IDENTIFYs with the next token of the list (GUILDS only) and counts
// once READY arrives; raw: each socket counts once open. Connects in batches, prints
// {"ready":N} when every socket is ready, and closes them all when stdin ends.
//   bun sockets.ts <ws url> <count> [token,token,...]
export {};
const [url, countArg, list] = process.argv.slice(2);
const count = Number(countArg);
const tokens = list ? list.split(",") : [];
const BATCH = 200;
const sockets: WebSocket[] = [];

function open(i: number): Promise<void> {
  return new Promise((ready, fail) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    const deadline = setTimeout(() => fail(new Error(`socket ${i} not ready within 30 s`)), 30_000);
    const done = () => {
      clearTimeout(deadline);
      ready();
    };
    ws.onerror = () => fail(new Error(`socket ${i} to ${url} failed`));
    if (!tokens.length) {
      ws.onopen = done;
      return;
    }
    ws.onmessage = (ev) => {
      const data = String(ev.data);
      if (data.startsWith('{"op":10')) {
        ws.send(
          JSON.stringify({
            op: 2,
            d: { token: tokens[i % tokens.length], intents: 1, properties: { os: "linux", browser: "bench", device: "bench" } },
          }),
        );
      } else if (data.includes('"t":"READY"')) done();
    };
  });
}

for (let i = 0; i < count; i += BATCH) await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, (_, k) => open(i + k)));
console.log(JSON.stringify({ ready: sockets.length }));
for await (const _ of console) {
  // stdin is for holding on; its end closes everything
}
for (const ws of sockets) ws.close();
process.exit(0);
