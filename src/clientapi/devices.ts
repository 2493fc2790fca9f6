/**
 * Devices for end-to-end encrypted DMs: a client registers its public keys, lists and
 * removes the person's devices (a browser signed in again claims its own for the new
 * session, so removing it signs that browser out), reads the devices of a DM's two
 * people to encrypt for them, and reads back the person's own sealed key backups
 * (docs/people-api.md).
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { backupView, deviceView } from "./views";

// Sizes are checked in the core (src/e2e/format.ts); the schema only fixes types.
const Key = Type.Union([Type.String({ maxLength: 128 }), Type.Null()]);
export const NewDevice = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    keys: Type.Object({ x25519: Type.Optional(Key), p256: Type.Optional(Key) }, { additionalProperties: false }),
    backup: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export function deviceRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/users/@me/devices",
      person(p, ({ me }) => core.devices.current(me.id).map(deviceView)),
    )
    .post(
      "/users/@me/devices",
      person(p, async ({ me, session, body }) => {
        const b = await body(NewDevice);
        return deviceView(core.devices.register(me.id, { name: b.name, ...b.keys, backup: b.backup }, session));
      }),
    )
    .get(
      "/users/@me/key-backups",
      person(p, ({ me }) => core.devices.backups(me.id).map(backupView)),
    )
    .delete(
      "/users/@me/devices/:device_id",
      person(p, ({ me, session, params }) => {
        core.devices.remove(me.id, pathId(params.device_id, "device"), session);
      }),
    )
    .put(
      "/users/@me/devices/:device_id/session",
      person(p, ({ me, session, params }) => {
        core.devices.claim(me.id, pathId(params.device_id, "device"), session);
      }),
    )
    .get(
      "/channels/:channel_id/devices",
      person(p, ({ me, params }) => core.devices.inDm(me.id, pathId(params.channel_id, "channel")).map(deviceView)),
    );
}
