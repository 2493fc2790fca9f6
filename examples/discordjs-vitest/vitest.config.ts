import { defineConfig } from "vitest/config";

// A bot logs in over real sockets: give tests and hooks more than the default 5 s.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } });
