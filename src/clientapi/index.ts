/**
 * The people's API (/api/client/v1): what the web client, the developer portal and
 * scripts use to act as persons. Our own JSON and internal ids, not the reference shape.
 * One line per area; each area's routes are declared in their own file (wire/route.ts,
 * docs/people-api.md) and run by the one pipeline through the people's door (http.ts).
 */
import type { ClientContext } from "./context";
import type { PeopleRoute } from "./http";
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
import { conversationRoutes } from "./conversations";
import { communityRoutes } from "./community";
import { accountRoutes } from "./account";
import { botIdRoutes } from "./bot-ids";
import { adminRoutes } from "./admin";
import { uploadRoutes } from "./uploads";
import { setupRoutes } from "./setup";

export function clientApiRoutes(p: ClientContext): PeopleRoute[] {
  return [
    ...reactionsPlugin(p),
    ...typingPlugin(p),
    ...moderationRoutes(p),
    ...authRoutes(p),
    ...guildRoutes(p),
    ...channelRoutes(p),
    ...roleRoutes(p),
    ...inviteRoutes(p),
    ...messageRoutes(p),
    ...dmRoutes(p),
    ...presenceRoutes(p),
    ...portalRoutes(p),
    ...clientInteractions(p),
    ...commandRoutes(p),
    ...readStateRoutes(p),
    ...deviceRoutes(p),
    ...sessionRoutes(p),
    ...conversationRoutes(p),
    ...communityRoutes(p),
    ...accountRoutes(p),
    ...botIdRoutes(p),
    ...setupRoutes(p),
    ...adminRoutes(p),
    ...uploadRoutes(p),
  ];
}

/** The people's API's part of the API description, read off the declarations (wire/openapi.ts). */
export const CLIENT_API_DESCRIPTION = {
  tag: "people",
  description:
    "The people's API: what the web client, the developer portal and scripts use to act as a person. Internal ids (UUIDs); `Authorization: Session <token>`.",
};

export { peopleDoor, PEOPLE_BODY_LIMIT } from "./http";
export { mediaProxyRoutes, MEDIA_PREFIX } from "./media";
export { uploadBodyRoutes } from "./uploads";
export { fileRoutes } from "./files";
