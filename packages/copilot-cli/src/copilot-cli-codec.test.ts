import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript } from "@txcript/core";
import { describeCodecLaws } from "@txcript/core/testing";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { copilotCliProject } from "./copilot-cli-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixturesDirectory = path.join(repoRoot, "fixtures/copilot-cli");

function eventLogs(directory: string) {
  const names = (readdirSync(directory, { recursive: true }) as string[]).filter((name) =>
    name.endsWith(".jsonl"),
  );
  return names.sort().map((name) => ({
    name: `fixture ${name}`,
    text: readFileSync(path.join(directory, name), "utf8"),
  }));
}

// An empty subagent list and none are the same content, spelled two ways.
function withoutEmptySubagents(transcript: Transcript): Transcript {
  if (transcript.subagents === undefined || transcript.subagents.length > 0) return transcript;
  const { subagents: _, ...rest } = transcript;
  return rest;
}

describeCodecLaws({
  codec: copilotCliCodec,
  project: (transcript) => copilotCliProject(transcript),
  samples: () => eventLogs(fixturesDirectory),
  equivalent: withoutEmptySubagents,
});
