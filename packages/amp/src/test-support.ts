// Test helpers shared by this package's tests (not exported from the entry):
// where the fixtures and the real captures live, and reading them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const fixturesDir = path.join(repoRoot, "fixtures/amp");
export const realDir = path.resolve(repoRoot, "../shared/real");
export const realExport = path.join(realDir, "amp-export-convo.json");

/** The native fixtures: every fixtures/amp/*.json that is not a .common.json. */
export function fixtureNames(): string[] {
  if (!existsSync(fixturesDir)) return [];
  return readdirSync(fixturesDir)
    .filter((name) => name.endsWith(".json") && !name.endsWith(".common.json"))
    .sort();
}

/** Law 1's samples: every fixture, and the real export when ../shared is present. */
export function fixtureSamples(): { name: string; text: string }[] {
  const samples = fixtureNames().map((name) => ({
    name: `fixtures/amp/${name}`,
    text: readFileSync(path.join(fixturesDir, name), "utf8"),
  }));
  if (existsSync(realExport))
    samples.push({
      name: "../shared/real/amp-export-convo.json",
      text: readFileSync(realExport, "utf8"),
    });
  else console.warn(`law 1 runs without the real Amp export: ${realExport} is absent`);
  return samples;
}
