// Child process of the files bench (media.ts): `parley` is Parley from source on a
// file-backed store (tempParley) with one person in one server; `bare` is the ceiling,
// a bare Bun server that writes a PUT body to a new file with Bun.write and answers a GET
// with a bare Bun.file response of the last one. Prints one JSON line and serves until
// killed (loopback only).
//   bun servers/files.ts parley|bare
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempParley } from "./temp";

if (process.argv[2] === "bare") {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-bare-"));
  // Each PUT a new file, as each of Parley's uploads is (rewriting one would truncate it first).
  let puts = 0;
  let path = join(dir, "file-0.bin");
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method === "PUT") {
        const next = join(dir, `file-${++puts}.bin`);
        await Bun.write(next, req);
        path = next;
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
