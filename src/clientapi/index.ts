/**
 * The people's API (/api/client/v1): what the web client, the developer portal and
 * scripts use to act as persons. Our own JSON and internal ids, not the reference shape.
 * One line per area; each area's routes live in their own file (docs/people-api.md).
 */
import { Elysia } from "elysia";
import type { ClientContext } from "./context";
import { reactionsPlugin } from "./reactions";
import { typingPlugin } from "./typing";
import { moderationRoutes } from "./moderation";
import { authRoutes } from "./auth";
import { guildRoutes } from "./guilds";
import { channelRoutes } from "./channels";
import { roleRoutes } from "./roles";
import { inviteRoutes } from "./invites";
import { messageRoutes } from "./messages";
import { dmRoutes } from "./dms";
import { presenceRoutes } from "./presence";
import { portalRoutes } from "./portal";
import { clientInteractions } from "./interactions";
import { commandRoutes } from "./commands";
import { readStateRoutes } from "./read-states";
import { deviceRoutes } from "./devices";
import { sessionRoutes } from "./sessions";

export function clientApiPlugin(p: ClientContext) {
  const app = new Elysia({ prefix: "/api/client/v1" });
  app.use(reactionsPlugin(p));
  app.use(typingPlugin(p));
  app.use(moderationRoutes(p));
  app.use(authRoutes(p));
  app.use(guildRoutes(p));
  app.use(channelRoutes(p));
  app.use(roleRoutes(p));
  app.use(inviteRoutes(p));
  app.use(messageRoutes(p));
  app.use(dmRoutes(p));
  app.use(presenceRoutes(p));
  app.use(portalRoutes(p));
  app.use(clientInteractions(p));
  app.use(commandRoutes(p));
  app.use(readStateRoutes(p));
  app.use(deviceRoutes(p));
  app.use(sessionRoutes(p));
  return app;
}
