import type { RouteDef } from "../http";
import { DomainError } from "../../core/errors";

/** Routes the spec names explicitly as refused (501). Everything unknown falls through to the 501 fallback too. */
export const unsupportedRoutes: RouteDef[] = [
  {
    method: "POST",
    path: "/guilds",
    auth: "any",
    handler: () => {
      throw DomainError.notImplemented("501: Not Implemented. A bot cannot create a server on Parley.");
    },
  },
];
