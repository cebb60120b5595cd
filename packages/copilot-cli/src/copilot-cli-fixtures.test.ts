import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { copilotCliCodec } from "./copilot-cli-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/copilot-cli");
const names = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

describe("fixtures/copilot-cli", () => {
  it("holds the event logs Copilot CLI 1.0.102 wrote", () => {
    expect(names).toEqual(["hello.jsonl", "tool-call.jsonl"]);
  });
  for (const name of names) {
    it(`${name} is detected and converts to its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      expect(copilotCliCodec.detect(text)).toBe(true);
      const transcript = copilotCliCodec.toCommon(copilotCliCodec.parse(text));
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
  it("tool-call.jsonl pairs the bash call with its result as Bash and a tool_result", () => {
    const text = readFileSync(path.join(directory, "tool-call.jsonl"), "utf8");
    const warnings: string[] = [];
    const transcript = copilotCliCodec.toCommon(copilotCliCodec.parse(text), {
      onWarning: (warning) => warnings.push(`${warning.count} ${warning.code}`),
    });
    const assistant = transcript.messages.find((message) =>
      message.content.some((block) => block.type === "tool_use"),
    );
    expect(assistant?.content[1]).toEqual({
      type: "tool_use",
      id: "call_stub_1",
      tool: { name: "Bash", input: { command: "echo hi-from-tool", description: "Say hi" } },
    });
    const result =
      transcript.messages[
        assistant === undefined ? -1 : transcript.messages.indexOf(assistant) + 1
      ];
    expect(result?.content).toEqual([
      {
        type: "tool_result",
        toolUseId: "call_stub_1",
        content: "hi-from-tool\n<shellId: 0 completed with exit code 0>",
        isError: false,
      },
    ]);
    // turn_start ×2, usage_record ×2, tool.execution_start, turn_end ×2, session.shutdown.
    expect(warnings).toEqual(["8 copilot_cli.bookkeeping-event"]);
  });
});
