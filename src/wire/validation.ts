/**
 * One TypeBox schema is both the TypeScript type and the validator; limits live in the
 * schema. Failures become 400 code 50035 naming the path the reference way
 * (`embeds[0].fields[3].value`), plus the nested `errors` object.
 */
import { Type, type TSchema, type Static } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { DomainError, type FieldIssue } from "../core";
import { parseRequestJson } from "./json";
import { readBodyText } from "./body";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checker<T extends TSchema>(schema: T): TypeCheck<T> {
  let c = compiled.get(schema);
  if (!c) compiled.set(schema, (c = TypeCompiler.Compile(schema)));
  return c as TypeCheck<T>;
}

/** "/embeds/0/fields/3/value" -> "embeds[0].fields[3].value" */
export function pointerToPath(pointer: string): string {
  let out = "";
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(key) ? `[${key}]` : out ? `.${key}` : key;
  }
  return out;
}

function describe(e: ValueError): { code: string; message: string } {
  const s = e.schema as Record<string, unknown>;
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return { code: "BASE_TYPE_REQUIRED", message: "This field is required" };
    case ValueErrorType.StringMaxLength:
      return { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${s.maxLength} or fewer in length.` };
    case ValueErrorType.StringMinLength:
      return { code: "BASE_TYPE_MIN_LENGTH", message: `Must be ${s.minLength} or more in length.` };
    case ValueErrorType.ArrayMaxItems:
      return { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${s.maxItems} or fewer in length.` };
    case ValueErrorType.ArrayMinItems:
      return { code: "BASE_TYPE_MIN_LENGTH", message: `Must be ${s.minItems} or more in length.` };
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return { code: "NUMBER_TYPE_MAX", message: `int value should be less than or equal to ${s.maximum}.` };
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return { code: "NUMBER_TYPE_MIN", message: `int value should be greater than or equal to ${s.minimum}.` };
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
      return { code: "NUMBER_TYPE_COERCE", message: `Value ${shortValue(e.value)} is not a number.` };
    case ValueErrorType.String:
      return { code: "BASE_TYPE_STRING", message: "Could not interpret the value as string." };
    case ValueErrorType.Boolean:
      return { code: "BASE_TYPE_BOOLEAN", message: "Must be either true or false." };
    case ValueErrorType.Array:
      return { code: "BASE_TYPE_ARRAY", message: "Must be an array." };
    case ValueErrorType.Object:
      return { code: "DICT_TYPE_CONVERT", message: "Only dictionaries may be used in a DictType" };
    case ValueErrorType.StringPattern:
      return { code: "BASE_TYPE_INVALID", message: "Value is not in the expected form." };
    case ValueErrorType.Union:
    case ValueErrorType.Literal:
      return { code: "BASE_TYPE_CHOICES", message: "Value is not one of the accepted choices." };
    default:
      return { code: "BASE_TYPE_INVALID", message: e.message };
  }
}

/** Validate a parsed body against a schema; throws 50035 naming every offending path. */
export function validate<T extends TSchema>(schema: T, value: unknown, prefix = ""): Static<T> {
  const c = checker(schema);
  if (c.Check(value)) {
    const bad = unsafeLeaf(value, prefix);
    if (bad) throw DomainError.invalid(bad.path, bad.message, bad.code);
    return value as Static<T>;
  }
  throw DomainError.invalidMany(issuesOf(schema, value, prefix));
}

function issuesOf(schema: TSchema, value: unknown, prefix: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  for (const e of checker(schema).Errors(value)) {
    const rel = pointerToPath(e.path);
    const path = prefix && rel ? (rel.startsWith("[") ? prefix + rel : `${prefix}.${rel}`) : prefix || rel;
    if (seen.has(path)) continue; // first (most specific) error per path
    seen.add(path);
    const keyed = e.type === ValueErrorType.Union ? keyedMember(e.schema, e.value) : undefined;
    if (keyed?.member) issues.push(...issuesOf(keyed.member, e.value, path));
    else if (keyed) issues.push({ path, code: "BASE_TYPE_CHOICES", message: `Give one of: ${keyed.choices}` });
    else issues.push({ path, ...describe(e) });
    if (issues.length >= 20) break;
  }
  return issues.slice(0, 20);
}

/**
 * A union of objects told apart by their required fields (`{advance_ms}` or `{set}`): the
 * member whose fields the value names, so that its own errors say which field is wrong
 * and how; when it names none, or several members' fields, what to give instead. Other
 * unions (a string or an integer) answer undefined and keep the plain "not one of".
 */
function keyedMember(schema: TSchema, value: unknown): { member?: TSchema; choices: string } | undefined {
  const members = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!members || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const required = members.map((m) => (m.type === "object" && Array.isArray(m.required) ? (m.required as string[]) : null));
  if (required.some((r) => !r?.length)) return undefined;
  const choices = required.map((r) => r!.join(" and ")).join(", ");
  const named = members.filter((_, i) => required[i]!.some((k) => k in value));
  return named.length === 1 ? { member: named[0], choices } : { choices };
}

/**
 * What no schema may let through, checked once here for every body on every surface:
 * numbers beyond 2^53 (1e308 is an "integer" to JavaScript, and a REAL to SQLite) and
 * NUL characters in strings (names and texts end at them in C-string consumers).
 * Recursive, and safe: parsed bodies are at most MAX_JSON_DEPTH deep (json.ts).
 */
function unsafeLeaf(v: unknown, path: string): FieldIssue | null {
  if (typeof v === "number") {
    return Math.abs(v) > Number.MAX_SAFE_INTEGER
      ? { path, code: "NUMBER_TYPE_MAX", message: `Must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.` }
      : null;
  }
  if (typeof v === "string")
    return v.includes("\u0000") ? { path, code: "BASE_TYPE_BAD_CHARACTERS", message: "Must not contain NUL characters." } : null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = unsafeLeaf(v[i], `${path}[${i}]`);
      if (bad) return bad;
    }
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      const bad = unsafeLeaf(x, path ? `${path}.${k}` : k);
      if (bad) return bad;
    }
  }
  return null;
}

/**
 * A rejected value as error text: scalars as they are (cut short), arrays and objects by
 * kind only. String() on an array would recurse through every nested element.
 */
export function shortValue(v: unknown): string {
  if (Array.isArray(v)) return "(an array)";
  if (v !== null && typeof v === "object") return "(an object)";
  const s = typeof v === "string" ? JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}...` : v) : String(v);
  return s;
}

/** Read (bounded, body.ts), parse (lossless for ids, bounded depth) and validate a request body against a schema. */
export async function readBody<T extends TSchema>(request: Request, schema: T): Promise<Static<T>> {
  return validate(schema, parseRequestJson(await readBodyText(request)));
}

// ---- shared schema pieces ----

/**
 * A snowflake in a body: a decimal string without leading zeros (numbers above 2^53
 * arrive as strings, see json.ts; only the canonical spelling is an id, snowflakes.ts).
 */
export const Snowflake = Type.Union([Type.String({ pattern: "^(0|[1-9][0-9]{0,19})$" }), Type.Integer({ minimum: 0 })]);

export function idString(v: string | number): string {
  return String(v);
}

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
