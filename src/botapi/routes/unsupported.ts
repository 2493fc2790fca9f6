import { route, type BotRoute } from "../http";
import { DomainError } from "../../core";

/** Routes the spec names explicitly as refused (501). Everything unknown falls through to the 501 fallback too. */
export const unsupportedRoutes: BotRoute[] = [
  route({
    method: "POST",
    path: "/guilds",
    summary: "Create a server: refused (501), a bot cannot create one on Parley",
    caller: "any",
    handler: () => {
      throw DomainError.notImplemented("501: Not Implemented. A bot cannot create a server on Parley.");
    },
  }),
];
