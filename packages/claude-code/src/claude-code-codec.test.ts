import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeProject } from "./claude-code-project.js";
import { oddShapesArbitrary } from "./test-support/odd-shapes.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/claude-code");
const fixturesDirectory = path.join(repoRoot, "fixtures/claude-code");

function jsonlSamples(directory: string, label: string) {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith(".jsonl"));
  } catch {
    console.warn(`skipping ${label} samples: ${directory} is absent`);
    return [];
  }
  return names.sort().map((name) => ({
    name: `${label} ${name}`,
    text: readFileSync(path.join(directory, name), "utf8"),
  }));
}

describeCodecLaws({
  codec: claudeCodeCodec,
  project: (transcript) => claudeCodeProject(transcript),
  samples: () => [
    ...jsonlSamples(realDirectory, "real"),
    ...jsonlSamples(fixturesDirectory, "fixture"),
  ],
});

describeCodecLaws({
  codec: claudeCodeCodec,
  project: (transcript) => claudeCodeProject(transcript),
  arbitrary: oddShapesArbitrary(),
  label: "claude_code (shapes the core generator does not make)",
});
