/** A setting the operator gave that cannot be used: one line, said before anything starts. */
export class ConfigError extends Error {}

/** Flags as parsed from the command line, before they are checked. */
export type RawFlags = Record<string, string | boolean>;
