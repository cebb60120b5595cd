// Root test entry: one vitest run over every package (each package's own
// vitest.config.ts), so CI derives one pass/fail count from one JSON report.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*"],
    globalSetup: ["scripts/vitest-global-setup.mjs"],
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
  },
});
