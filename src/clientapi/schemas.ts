/** Reading the people's API's lists into bits (core/permissions.ts); the lists' schemas are the contract's. */
import { permissionsFromList } from "../core";

/** Permission names or a decimal bitfield; other bits than the 13 honoured ones are dropped (spec 2.9). */
export function permissionBits(v: string | string[] | undefined, path: string): number | undefined {
  return v === undefined ? undefined : permissionsFromList(v, path);
}

export { intentsFromList as intentBits } from "../core";
