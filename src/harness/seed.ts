/** Moved to src/world (the world document is production code too); these names stay until the harness imports src/world. */
export { seedWorld, seedWorldAsync, WorldSchema, type SeedAnswer, type SeedContext, type World } from "../world";
