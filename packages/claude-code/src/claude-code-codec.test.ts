import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Block, Message, Subagent, Transcript } from "@txcript/core";
import { describeCodecLaws } from "@txcript/core/testing";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeProject } from "./claude-code-project.js";
import { tangledArbitrary } from "./test-support/tangled.js";

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

// Re-spellings only, for "no warning ⇒ no loss": the session model is the
// first assistant model when meta names none; signed or redacted thinking is
// Anthropic's; an empty list of subagents is none.
function thinkingOf(block: Block): Block {
  if (block.type !== "thinking" || block.provider !== undefined) return block;
  return block.signature !== undefined || block.encrypted !== undefined
    ? { ...block, provider: "anthropic" }
    : block;
}
const messagesOf = (messages: Message[]) =>
  messages.map((message) => ({ ...message, content: message.content.map(thinkingOf) }));
function subagentsOf(subagents: Subagent[] | undefined): { subagents?: Subagent[] } {
  if (subagents === undefined || subagents.length === 0) return {};
  return {
    subagents: subagents.map(({ subagents: nested, ...subagent }) => ({
      ...subagent,
      messages: messagesOf(subagent.messages),
      ...subagentsOf(nested),
    })),
  };
}
function equivalent(transcript: Transcript): Transcript {
  const model =
    transcript.meta.model ??
    transcript.messages.find((message) => message.role === "assistant" && message.model)?.model;
  const { subagents, ...rest } = transcript;
  return {
    ...rest,
    meta: model === undefined ? transcript.meta : { ...transcript.meta, model },
    messages: messagesOf(transcript.messages),
    ...subagentsOf(subagents),
  };
}

describeCodecLaws({
  codec: claudeCodeCodec,
  project: (transcript) => claudeCodeProject(transcript),
  equivalent,
  samples: () => [
    ...jsonlSamples(realDirectory, "real"),
    ...jsonlSamples(fixturesDirectory, "fixture"),
  ],
});

describeCodecLaws({
  codec: claudeCodeCodec,
  project: (transcript) => claudeCodeProject(transcript),
  equivalent,
  arbitrary: tangledArbitrary(),
  label: "claude_code (tangled commands, results, compaction and context)",
});
