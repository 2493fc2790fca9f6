/**
 * Shared body pieces of the people's API, and the one place that reads permission and
 * intent lists (names or a decimal bitfield) into bits.
 */
import { Type } from "@sinclair/typebox";
import { DomainError } from "../core/errors";
import { intentBit, maskPermissions, permissionBit } from "../core/permissions";

export const Uuid = Type.String({ pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" });
export const PermissionList = Type.Union([Type.String({ pattern: "^[0-9]{1,20}$" }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })]);
export const IntentList = Type.Union([Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })]);

/** Permission names or a decimal bitfield; other bits than the 13 honoured ones are dropped (spec 2.9). */
export function permissionBits(v: string | string[] | undefined, path: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "string") return maskPermissions(v);
  let bits = 0;
  v.forEach((name, i) => {
    const b = permissionBit(name);
    if (b === undefined) throw DomainError.invalid(`${path}[${i}]`, `Unknown permission '${name}'`, "BASE_TYPE_CHOICES");
    bits |= b;
  });
  return bits;
}

export function intentBits(v: number | string[], path: string): number {
  if (typeof v === "number") return v;
  let bits = 0;
  v.forEach((name, i) => {
    const b = intentBit(name);
    if (b === undefined) throw DomainError.invalid(`${path}[${i}]`, `Unknown intent '${name}'`, "BASE_TYPE_CHOICES");
    bits |= b;
  });
  return bits;
}
