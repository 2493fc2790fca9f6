/**
 * An embed as a message body gives it (spec 8.2's per-field limits), shared by the bot API
 * and the harness (a person's message with embeds), so a malformed embed is refused with
 * its path before any bot receives it.
 */
import { Type, type TSchema } from "@sinclair/typebox";

const Str = (max: number) => Type.String({ maxLength: max });
const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
const Size = Type.Integer({ minimum: 0, maximum: 1 << 30 });

const Media = Type.Object({ url: Str(2048), proxy_url: Opt(Str(2048)), height: Opt(Size), width: Opt(Size) });

export const EmbedSchema = Type.Object({
  title: Opt(Str(256)),
  type: Opt(Str(32)),
  description: Opt(Str(4096)),
  url: Opt(Str(2048)),
  timestamp: Opt(
    Type.String({ maxLength: 64, pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?$" }),
  ),
  color: Opt(Type.Integer({ minimum: 0, maximum: 0xffffff })),
  fields: Opt(Type.Array(Type.Object({ name: Str(256), value: Str(1024), inline: Opt(Type.Boolean()) }), { maxItems: 25 })),
  footer: Opt(Type.Object({ text: Str(2048), icon_url: Opt(Str(2048)), proxy_icon_url: Opt(Str(2048)) })),
  author: Opt(Type.Object({ name: Str(256), url: Opt(Str(2048)), icon_url: Opt(Str(2048)), proxy_icon_url: Opt(Str(2048)) })),
  image: Opt(Media),
  thumbnail: Opt(Media),
  video: Opt(Media),
  provider: Opt(Type.Object({ name: Opt(Str(256)), url: Opt(Str(2048)) })),
});
