/**
 * The files door (issue 31, docs/security.md): attachments, avatars, server icons,
 * application icons and custom emoji, on the reference's content path shapes, so a bot
 * library whose CDN base is Parley's base URL finds them. No session is asked for: an
 * <img> sends none, and bots fetch what they were shown. Attachments need the link's
 * signature (wire/files.ts); the rest are public by content hash, as on the reference.
 * What is answered, with which headers, is decided in wire/file-serving.ts.
 */
import type { ClientContext } from "./context";
import { route, type PeopleRoute } from "./http";
import { answerFile, defaultAvatar, fileResponse, type FileDoorDeps } from "../wire/file-serving";
import { pathnameOf } from "../wire/body";
import { jsonResponse } from "../wire/http";

const PATHS = [
  ["/attachments/{channel_id}/{attachment_id}/{filename}", "An attachment, by its signed link (`?ex=&is=&hm=`)"],
  ["/avatars/{user_id}/{file}", "A user's avatar, `{hash}.png` (`?size=` is accepted and ignored)"],
  ["/icons/{guild_id}/{file}", "A server's icon, `{hash}.png`"],
  ["/app-icons/{application_id}/{file}", "An application's icon (its bot's avatar), `{hash}.png`"],
  ["/emojis/{file}", "A custom emoji's image, `{emoji_id}.png`"],
] as const;

export function fileRoutes(p: ClientContext): PeopleRoute[] {
  const files = p.flakes.files;
  const deps: FileDoorDeps | null = files && { media: p.core.media, emojis: p.core.emojis, flakes: p.flakes, links: files };
  const unknown = () => jsonResponse(404, { code: 10003, message: "Unknown File" });
  return [
    ...PATHS.map(([path, summary]) =>
      route({
        method: "GET",
        path,
        caller: "none",
        summary,
        answers: "image",
        handler: ({ request, query, headers, method }) => {
          if (!deps) return unknown();
          return fileResponse(answerFile({ method, pathname: pathnameOf(request.url), search: query, headers }, deps));
        },
      }),
    ),
    route({
      method: "GET",
      path: "/embed/avatars/{file}",
      caller: "none",
      summary: "The default avatars, `0.png` to `5.png`, for users without one",
      answers: "image",
      handler: ({ request }) => {
        const a = defaultAvatar(pathnameOf(request.url));
        return a ? fileResponse(a) : unknown();
      },
    }),
  ];
}
