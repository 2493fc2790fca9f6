// Child process of the files bench (media.ts): `parley` is Parley from source on a
// file-backed store (tempParley) with one person in one server; `bare` is the ceiling,
// a bare Bun server that writes a PUT body with Bun.write and answers a GET with a bare
// Bun.file response. Prints one JSON line and serves until killed (loopback only).
//   bun servers/files.ts parley|bare
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempParley } from "./temp";

if (process.argv[2] === "bare") {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-bare-"));
  const path = join(dir, "file.bin");
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method === "PUT") {
        await Bun.write(path, req);
        return new Response(null, { status: 204 });
      }
      return new Response(Bun.file(path));
    },
  });
  const stop = () => {
    server.stop(true);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  console.log(JSON.stringify({ port: server.port }));
} else {
  const p = tempParley("parley-bench-files-");
  const w = p.seed({
    users: [{ name: "alice" }],
    guilds: [{ name: "Bench", owner: "alice", channels: [{ name: "general" }] }],
  });
  const server = p.listen();
  console.log(
    JSON.stringify({
      port: server.port,
      token: w.users.alice.token,
      channel: p.api.flakes.uuid(w.guilds.Bench.channels.general),
    }),
  );
}
