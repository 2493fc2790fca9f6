/**
 * The people's API (/api/client/v1): what the web client, the developer portal and
 * scripts use to act as persons. Our own JSON and internal ids, not the reference shape.
 * One line per area; each area's routes live in their own file.
 */
import { Elysia } from "elysia";
import type { Parley } from "../app";
import { clientInteractions } from "./interactions";

export function clientApiPlugin(_p: Parley) {
  const app = new Elysia({ prefix: "/api/client/v1" });
  app.use(clientInteractions(_p));
  return app;
}
