// Test helpers shared by this package's tests (not exported from the entry):
// where the fixtures and the real captures live, and reading them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const fixturesDir = path.join(repoRoot, "fixtures/opencode");
export const realDir = path.resolve(repoRoot, "../shared/real/opencode");
export const realExports = ["export-1.2.20-codectx.json", "export-1.15.6-windows-mcp-Cap.json"];
export const realStorage = path.join(realDir, "storage-pre-1.2-local-opencode");
/** Why the real-capture tests skip, or undefined when ../shared/real/opencode is there. */
export const realSkipReason = existsSync(realDir)
  ? undefined
  : `../shared/real/opencode is absent (${realDir}); the real-capture tests skip`;

/** The native fixtures: every fixtures/opencode/*.json that is not a .common.json. */
export function fixtureNames(): string[] {
  if (!existsSync(fixturesDir)) return [];
  return readdirSync(fixturesDir)
    .filter((name) => name.endsWith(".json") && !name.endsWith(".common.json"))
    .sort();
}

export function fixtureSamples(): { name: string; text: string }[] {
  const samples = fixtureNames().map((name) => ({
    name: `fixtures/opencode/${name}`,
    text: readFileSync(path.join(fixturesDir, name), "utf8"),
  }));
  for (const name of realExports) {
    const file = path.join(realDir, name);
    if (existsSync(file))
      samples.push({ name: `../shared/real/opencode/${name}`, text: readFileSync(file, "utf8") });
  }
  return samples;
}
