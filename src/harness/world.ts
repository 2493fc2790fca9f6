/** Moved to src/world (export and import are production code); these names stay until nothing imports them from here. */
export { EXPORT_FORMAT, ExportSchema, exportDocument, importRows, isExport, type ExportedWorld } from "../world";
