import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { codexCodec } from "./codex-codec.js";
import { codexProject } from "./codex-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/codex");
const fixturesDirectory = path.join(repoRoot, "fixtures/codex");

function samples(directory: string, label: string) {
  let names: string[];
  try {
    names = readdirSync(directory).filter(
      (name) => name.endsWith(".jsonl") || name.endsWith(".json"),
    );
  } catch {
    console.warn(`SKIPPED ${label} samples: ${directory} is absent`);
    return [];
  }
  return names
    .filter((name) => !name.endsWith(".common.json"))
    .sort()
    .map((name) => ({
      name: `${label} ${name}`,
      text: readFileSync(path.join(directory, name), "utf8"),
    }));
}

describeCodecLaws({
  codec: codexCodec,
  project: (transcript) => codexProject(transcript),
  samples: () => [...samples(realDirectory, "real"), ...samples(fixturesDirectory, "fixture")],
});
