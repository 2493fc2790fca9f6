/**
 * A discordeno bot that asks for an intent its token was not granted, in a process of
 * its own: on close 4014 discordeno throws from its socket's close handler, so the
 * error reaches the process uncaught (Bun reports it as an uncaught exception of the
 * event handler, Node as an unhandled rejection), which only a process-level handler
 * sees, and which would fail whichever test was running in the test process.
 *
 * Usage: bun dd_intents.ts API_BASE TOKEN APPLICATION_ID INTENTS
 */
import { createBot, createDesiredPropertiesObject } from "discordeno";

const [apiBase, token, applicationId, intents] = process.argv.slice(2);
const say = (o: object) => console.log(JSON.stringify(o));
const quiet = { debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

for (const kind of ["unhandledRejection", "uncaughtException"] as const)
  process.on(kind, (e: unknown) => {
    say({ event: kind, message: e instanceof Error ? e.message : String(e) });
    process.exit(0);
  });

const bot: any = createBot({
  token,
  intents: Number(intents),
  applicationId,
  desiredProperties: createDesiredPropertiesObject({}, true) as any,
  events: { ready: () => say({ event: "ready" }) },
  rest: { token, applicationId, proxy: { baseUrl: apiBase } },
  loggerFactory: () => quiet,
});
bot.rest.isProxied = false;
await bot.start();
