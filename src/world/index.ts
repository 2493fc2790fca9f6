/**
 * The world as a document: seeding one (people, servers, applications by name), and
 * exporting and importing a running server's world. Production code (`npm start
 * --seed`, `parley export` / `import`) and the harness's /seed use it alike.
 */
export { WorldSchema, ExportSchema, EXPORT_FORMAT, type World, type SeedAnswer, type ExportedWorld } from "./document";
export { checkWorld, seedWorld, seedWorldAsync, type SeedContext } from "./seed";
export { exportDocument } from "./export";
export { checkDocument, importRows, importWorld, isExport, type ImportReport } from "./import";
