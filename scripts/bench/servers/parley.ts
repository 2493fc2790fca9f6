// Child process of the path benches: Parley from source on a file-backed store (WAL, as
// served), rate limits off, harness off, in the bench world (servers/world.ts). Prints
// one JSON line (BenchInfo) and serves until killed. The runner (index.ts) measures the
// compiled executable instead (paths.ts, startBinary).
//   bun servers/parley.ts <channels> <sessions>
import { tempParley } from "./temp";
import { benchWorld, finishWorld } from "./world";

const CHANNELS = Number(process.argv[2] ?? 50);
const SESSIONS = Number(process.argv[3] ?? 10);

const p = tempParley("parley-bench-");

const seeded = p.seed(benchWorld(CHANNELS, SESSIONS));
const server = p.listen();
console.log(JSON.stringify(await finishWorld(server.port!, seeded, SESSIONS)));
