import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenCodeProject } from "./qwen-code-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixturesDirectory = path.join(repoRoot, "fixtures/qwen-code");

function recordings(directory: string, label: string) {
  let names: string[];
  try {
    names = (readdirSync(directory, { recursive: true }) as string[]).filter((name) =>
      name.endsWith(".jsonl"),
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
  codec: qwenCodeCodec,
  project: (transcript) => qwenCodeProject(transcript),
  samples: () => recordings(fixturesDirectory, "fixture"),
});
