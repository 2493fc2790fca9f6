/**
 * What a password hash costs (Argon2id, core/crypto.ts). A server hashes at the OWASP
 * baseline; an in-process test app (testConfig) at a cost of well under a millisecond, so
 * a suite that signs people up and in hundreds of times spends its time on what it tests.
 * Not a command-line flag: no server is meant to run cheaper. A hash made at another cost
 * still verifies (its cost is written in it) and is replaced at its next sign-in.
 */
export interface PasswordCost {
  /** KiB of memory a hash takes. */
  memory: number;
  /** Passes over that memory. */
  passes: number;
}

/** The OWASP baseline (m = 19 MiB, t = 2; parallelism is always 1): every server's. */
export const STANDARD_PASSWORD_COST: PasswordCost = { memory: 19_456, passes: 2 };

/** In-process test apps': the least Argon2id allows to be meaningful, about 0.2 ms a hash. */
export const TEST_PASSWORD_COST: PasswordCost = { memory: 64, passes: 1 };
