/**
 * The people's API contract (/api/client/v1, docs/people-api.md): what it takes
 * (bodies.ts) and what it answers (answers.ts), as TypeBox schemas and their types. The
 * server validates and describes with the schemas; the web client imports the types
 * only (`import type`), so no TypeBox reaches the browser. Imports nothing of Parley.
 */
export * from "./bodies";
export * from "./answers";
