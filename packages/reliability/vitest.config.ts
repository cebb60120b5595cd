// The shared settings, with longer timeouts under the long budget
// (`pnpm fuzz` sets TXCRIPT_FUZZ_RUNS=100000 and TXCRIPT_BIG=1).
import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

const long = process.env.TXCRIPT_FUZZ_RUNS !== undefined || process.env.TXCRIPT_BIG === "1";

export default mergeConfig(
  shared,
  defineConfig({
    test: long ? { testTimeout: 3_600_000, hookTimeout: 600_000 } : {},
  }),
);
