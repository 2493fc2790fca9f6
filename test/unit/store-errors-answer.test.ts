/**
 * What a store failure answers (wire/errors.ts): a foreign key Postgres enforced is a row
 * another node deleted in that instant, answered 503 with Retry-After (asked again, the
 * core answers what is gone); the same key broken on SQLite, where the core reads and
 * writes in one transaction, is a bug: 500.
 */
import { expect, test } from "bun:test";
import { errorToStatusBody } from "../../src/wire/errors";

const storeError = (code: string, sqlState?: string) => Object.assign(new Error(code), { code, sqlState });

test("a foreign key Postgres enforced: 503 with Retry-After, the spec's body", () => {
  expect(errorToStatusBody(storeError("SQLITE_CONSTRAINT_FOREIGNKEY", "23503"))).toEqual({
    status: 503,
    body: { code: 0, message: "503: Service Unavailable" },
    headers: { "Retry-After": "1" },
  });
});

test("the same key broken on SQLite, or another constraint on Postgres: 500, a bug", () => {
  expect(errorToStatusBody(storeError("SQLITE_CONSTRAINT_FOREIGNKEY")).status).toBe(500);
  expect(errorToStatusBody(storeError("SQLITE_CONSTRAINT_CHECK", "23514")).status).toBe(500);
});
