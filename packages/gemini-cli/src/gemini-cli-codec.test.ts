import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiCliProject } from "./gemini-cli-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/gemini");
const fixturesDirectory = path.join(repoRoot, "fixtures/gemini-cli");

function recordings(directory: string, label: string) {
  let names: string[];
  try {
    // Recursive: fixtures/gemini-cli/store holds recordings in the store's own layout.
    names = (readdirSync(directory, { recursive: true }) as string[]).filter(
      (name) =>
        /\.jsonl?$/.test(name) && !name.endsWith(".common.json") && !name.endsWith("projects.json"),
    );
  } catch {
    console.warn(`SKIPPED ${label} samples: ${directory} is absent`);
    return [];
  }
  return names.sort().map((name) => ({
    name: `${label} ${name}`,
    text: readFileSync(path.join(directory, name), "utf8"),
  }));
}

describeCodecLaws({
  codec: geminiCliCodec,
  project: (transcript) => geminiCliProject(transcript),
  writeOptions: { now: new Date("2026-12-01T00:00:00.000Z") },
  samples: () => [
    ...recordings(realDirectory, "real"),
    ...recordings(fixturesDirectory, "fixture"),
  ],
});
