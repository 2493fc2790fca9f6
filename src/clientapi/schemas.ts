/** Shared body pieces of the people's API (lists are read into bits by core/permissions.ts). */
import { Type } from "@sinclair/typebox";
import { permissionsFromList } from "../core/permissions";

export const Uuid = Type.String({ pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" });
export const PermissionList = Type.Union([Type.String({ pattern: "^[0-9]{1,20}$" }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })]);
export const IntentList = Type.Union([Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })]);

/** Permission names or a decimal bitfield; other bits than the 13 honoured ones are dropped (spec 2.9). */
export function permissionBits(v: string | string[] | undefined, path: string): number | undefined {
  return v === undefined ? undefined : permissionsFromList(v, path);
}

export { intentsFromList as intentBits } from "../core/permissions";
