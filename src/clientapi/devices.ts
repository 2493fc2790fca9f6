/**
 * Devices for end-to-end encrypted DMs: a client registers its public keys, lists and
 * removes the person's devices (a browser signed in again claims its own for the new
 * session, so removing it signs that browser out), reads the devices of a DM's two
 * people to encrypt for them, and reads back the person's own sealed key backups
 * (docs/people-api.md).
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { NewDevice } from "../contract";
import * as C from "../contract";
import { pathId, route, type PeopleRoute } from "./http";
import { backupView, deviceView } from "./views";

export function deviceRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/users/@me/devices",
      caller: "session",
      summary: "One's current devices (their public keys)",
      answer: Type.Array(C.Device),
      handler: ({ caller: { user: me } }) => core.devices.current(me.id).map((d) => deviceView(d)),
    }),
    route({
      method: "POST",
      path: "/users/@me/devices",
      caller: "session",
      summary: "Register this client as a device: its public keys, optionally a sealed key backup",
      answer: C.Device,
      body: NewDevice,
      handler: ({ caller: { user: me, session }, body }) => {
        const b = body();
        return deviceView(core.devices.register(me.id, { name: b.name, ...b.keys, backup: b.backup }, session));
      },
    }),
    route({
      method: "GET",
      path: "/users/@me/key-backups",
      caller: "session",
      summary: "One's passphrase-sealed key backups",
      answer: Type.Array(C.KeyBackup),
      handler: ({ caller: { user: me } }) => core.devices.backups(me.id).map(backupView),
    }),
    route({
      method: "DELETE",
      path: "/users/@me/devices/{device_id}",
      caller: "session",
      summary: "Remove one of one's devices; the session holding it is signed out",
      answers: "empty",
      handler: ({ caller: { user: me, session }, params }) => {
        core.devices.remove(me.id, pathId(params.device_id, "device"), session);
      },
    }),
    route({
      method: "PUT",
      path: "/users/@me/devices/{device_id}/session",
      caller: "session",
      summary: "Say this session holds one's device (a browser signed in again)",
      answers: "empty",
      handler: ({ caller: { user: me, session }, params }) => {
        core.devices.claim(me.id, pathId(params.device_id, "device"), session);
      },
    }),
    route({
      method: "GET",
      path: "/channels/{channel_id}/devices",
      caller: "session",
      summary: "The devices of a DM's two people, to encrypt for and to check the safety number",
      answer: Type.Array(C.Device),
      handler: ({ caller: { user: me }, params }) =>
        core.devices.inDm(me.id, pathId(params.channel_id, "channel")).map((d) => deviceView(d, false)),
    }),
  ];
}
