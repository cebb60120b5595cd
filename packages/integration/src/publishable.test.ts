// publint and Are The Types Wrong on every published package, as built.
import { describe, expect, it } from "vitest";
import { assertBuilt, localBin, publishedPackages, run } from "./workspace.js";

const packages = publishedPackages();

describe("every published package", () => {
  it("includes the seventeen the project ships", () => {
    expect(packages.map((found) => found.name)).toEqual([
      "@txcript/amp",
      "@txcript/claude-code",
      "@txcript/cli",
      "@txcript/codex",
      "@txcript/copilot-cli",
      "@txcript/core",
      "@txcript/crush",
      "@txcript/cursor-cli",
      "@txcript/gemini-cli",
      "@txcript/html",
      "@txcript/kimi-cli",
      "@txcript/opencode",
      "@txcript/pi",
      "@txcript/qwen-code",
      "@txcript/redact",
      "@txcript/search",
      "@txcript/stream-json",
    ]);
  });

  for (const found of packages) {
    describe(found.name, () => {
      it("has a tight manifest: ESM, no side effects, dist only, engines, public access", () => {
        const manifest = found.manifest as Record<string, unknown>;
        expect(manifest.type).toBe("module");
        expect(manifest.sideEffects).toBe(false);
        expect(manifest.files).toContain("dist");
        expect((manifest.engines as Record<string, string>).node).toBe(">=20");
        expect((manifest.publishConfig as Record<string, string>).access).toBe("public");
        expect(manifest.license).toBe("MIT");
        for (const [subpath, target] of Object.entries(
          (manifest.exports ?? {}) as Record<string, unknown>,
        )) {
          if (subpath === "./package.json") continue;
          expect(Object.keys(target as object), subpath).toEqual([
            "@txcript/source",
            "types",
            "import",
          ]);
        }
      });

      it("passes publint --strict", async () => {
        assertBuilt(found);
        const { stdout } = await run(localBin("publint"), ["--strict", found.directory], {
          timeout: 120_000,
        });
        expect(stdout).toContain("All good!");
      });

      it("passes Are The Types Wrong (ESM-only profile)", async () => {
        assertBuilt(found);
        const result = await run(
          localBin("attw"),
          ["--pack", found.directory, "--profile", "esm-only", "--format", "json"],
          {
            timeout: 120_000,
            maxBuffer: 64 * 1024 * 1024,
          },
        ).then(
          (ok) => ({ stdout: ok.stdout, exitCode: 0 }),
          (error: { stdout?: string; code?: number }) => ({
            stdout: error.stdout ?? "",
            exitCode: error.code ?? 1,
          }),
        );
        // The ESM-only profile ignores node10 and CommonJS-require resolutions; anything else is a problem.
        const report = JSON.parse(result.stdout) as {
          problems?: Record<string, { resolutionKind?: string }[]>;
        };
        const problems = Object.values(report.problems ?? {})
          .flat()
          .filter(
            (problem) =>
              problem.resolutionKind !== "node10" && problem.resolutionKind !== "node16-cjs",
          );
        expect(problems).toEqual([]);
        expect(result.exitCode).toBe(0);
      });
    });
  }
});
