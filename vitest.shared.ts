// Shared vitest settings for every package: tests run against each package's
// TypeScript source (the "@txcript/source" export condition), so no build is
// needed to test a library. The CLI's end-to-end tests spawn the built bin.
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@txcript/source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["@txcript/source", ...defaultServerConditions] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
