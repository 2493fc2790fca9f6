import type { BotApi } from "../context";
import { DomainError } from "../../core";

/** The internal id behind a path snowflake; an id that never crossed the boundary is unknown (404 10003). */
export function known(api: BotApi, flake: string | undefined, what: string): string {
  const id = flake ? api.flakes.uuid(flake) : null;
  if (!id) throw DomainError.notFound(what);
  return id;
}

/** A limit query parameter: default when absent, 50035 naming it when out of range. */
export function limitParam(v: string | null, def: number, min: number, max: number, name = "limit"): number {
  if (v === null || v === "") return def;
  if (!/^\d+$/.test(v)) throw DomainError.invalid(name, `Value "${v}" is not int.`, "NUMBER_TYPE_COERCE");
  const n = Number(v);
  if (n < min) throw DomainError.invalid(name, `int value should be greater than or equal to ${min}.`, "NUMBER_TYPE_MIN");
  if (n > max) throw DomainError.invalid(name, `int value should be less than or equal to ${max}.`, "NUMBER_TYPE_MAX");
  return n;
}

/** A snowflake query parameter (before/after/around): 17 to 20 digits. */
export function flakeParam(v: string | null, name: string): string | undefined {
  if (v === null || v === "") return undefined;
  if (!/^[0-9]{1,20}$/.test(v) || BigInt(v) >= 1n << 64n)
    throw DomainError.invalid(name, `Value "${v}" is not snowflake.`, "NUMBER_TYPE_COERCE");
  return v;
}
