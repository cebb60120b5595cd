import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliProject } from "./kimi-cli-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixturesDirectory = path.join(repoRoot, "fixtures/kimi-cli");

function contextFiles(directory: string, label: string) {
  let names: string[];
  try {
    names = (readdirSync(directory, { recursive: true }) as string[]).filter(
      (name) => name.endsWith(".jsonl") && !name.endsWith("wire.jsonl"),
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
  codec: kimiCliCodec,
  project: (transcript) => kimiCliProject(transcript),
  samples: () => contextFiles(fixturesDirectory, "fixture"),
});
