// Token counts in usageMetadata (docs/formats/qwen-code.md): a count Common
// cannot hold exactly reads as 0, and that is named (qwen_code.usage-range).
import type { Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenCodeLosses } from "./qwen-code-losses.js";

const session = "9e1f3d57-714e-488a-b6b5-f36d3f36878c";

/** A user prompt and a model reply whose usageMetadata is `usage` (counts written as raw JSON text). */
function recording(usage: string): string {
  const base = { sessionId: session, cwd: "/p", version: "0.24.4" };
  const user = {
    ...base,
    uuid: "608955b9-8206-4f38-85ef-e54f9854e518",
    parentUuid: null,
    timestamp: "2026-12-06T12:39:56.627Z",
    type: "user",
    message: { role: "user", parts: [{ text: "hi" }] },
  };
  const model = {
    ...base,
    uuid: "b6138964-e539-43a8-98f3-51c01e1ab31e",
    parentUuid: user.uuid,
    timestamp: "2026-12-06T12:39:57.000Z",
    type: "assistant",
    model: "stub-model",
    message: { role: "model", parts: [{ text: "hello" }] },
    usageMetadata: "USAGE",
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(model).replace('"USAGE"', usage)}\n`;
}

function read(text: string) {
  const warnings: Warning[] = [];
  const transcript = qwenCodeCodec.toCommon(qwenCodeCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  return { transcript, codes: warnings.map((warning) => warning.code) };
}

describe("qwen_code usage counts", () => {
  it("a count past 2^53 − 1, negative or fractional reads as 0 and is named", () => {
    for (const count of ["9007199254740993", "1e300", "-5", "2.5"]) {
      const { transcript, codes } = read(
        recording(`{"promptTokenCount":${count},"candidatesTokenCount":7}`),
      );
      const usage = transcript.messages.find((message) => message.role === "assistant")?.usage;
      expect(usage?.inputTokens, count).toBe(0);
      expect(usage?.outputTokens).toBe(7);
      expect(codes, count).toContain("qwen_code.usage-range");
    }
    expect(qwenCodeLosses.map((loss) => loss.code)).toContain("qwen_code.usage-range");
  });

  it("the control: exact counts read as they are, and nothing is named", () => {
    const { transcript, codes } = read(
      recording(`{"promptTokenCount":9007199254740991,"candidatesTokenCount":7}`),
    );
    const usage = transcript.messages.find((message) => message.role === "assistant")?.usage;
    expect(usage?.inputTokens).toBe(9007199254740991);
    expect(codes).not.toContain("qwen_code.usage-range");
  });
});
