import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { piCodec } from "./pi-codec.js";
import { piProject } from "./pi-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/pi");
const fixturesDirectory = path.join(repoRoot, "fixtures/pi");

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
  codec: piCodec,
  project: piProject,
  samples: () => [
    ...jsonlSamples(realDirectory, "real"),
    ...jsonlSamples(fixturesDirectory, "fixture"),
  ],
});
