// The soak bench's ceiling (scripts/bench/soak.ts), compiled like Parley: a bare Bun
// server holding the same sockets. Each socket gets a HELLO-sized greeting and joins one
// topic; POST /publish sends the body it is given, framed as a dispatch with a seq, to
// all of them at once. No sessions, numbering per socket or replay: what the sockets and
// the frames alone cost. Prints one JSON line, {port}, and serves until killed.
//   soak-raw
export {};
let seq = 0;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req, srv) {
    if (new URL(req.url).pathname === "/publish") {
      srv.publish("all", `{"op":0,"s":${++seq},"t":"MESSAGE_CREATE","d":${await req.text()}}`);
      return new Response(null, { status: 204 });
    }
    return srv.upgrade(req, { data: undefined }) ? undefined : new Response("no", { status: 400 });
  },
  websocket: {
    idleTimeout: 0,
    open(ws) {
      ws.subscribe("all");
      ws.send('{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}');
    },
    message() {},
  },
});
console.log(JSON.stringify({ port: server.port }));
