// Every release of Qwen Code that records a resumable session: the JSONL
// recordings fixtures/qwen-code/eras/qwen-<version>.jsonl were written by that
// version itself (see fixtures/qwen-code/README.md), and each must round-trip
// byte for byte and read as its .common.json with its tool calls typed. The
// 0.1.x files (a `/chat save` checkpoint and the whole-document session file
// of Gemini CLI's layout) are not read: the control shows them not detected
// and a clear error when parsed as a recording.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, TxcriptError, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenToolToCanonical } from "./qwen-code-tools.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/qwen-code/eras");
const read = (name: string) => readFileSync(path.join(directory, name), "utf8");
const eras = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => name.slice("qwen-".length, -".jsonl".length));

describe("Qwen Code eras", () => {
  it("holds a recording of each JSONL era, from 0.5.0 (the first) to 0.23.4", () => {
    expect([...eras].sort()).toEqual(["0.12.0", "0.15.10", "0.21.10", "0.23.4", "0.5.0", "0.8.2"]);
  });
  for (const version of eras)
    it(`${version}: detected, byte-exact, read as its .common.json with typed Read and Bash calls`, () => {
      const text = read(`qwen-${version}.jsonl`);
      expect(qwenCodeCodec.detect(text)).toBe(true);
      const session = qwenCodeCodec.parse(text);
      expect(qwenCodeCodec.serialize(session)).toBe(text);
      const warnings: Warning[] = [];
      const transcript = qwenCodeCodec.toCommon(session, {
        onWarning: (warning) => warnings.push(warning),
      });
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(
        read(`qwen-${version}.common.json`),
      );
      // The file is the one that version wrote, in the project the run used.
      expect(transcript.meta.cliVersion).toBe(version);
      expect(transcript.meta.cwd).toBe("/tmp/qwork/p");
      expect(transcript.messages[0]?.content).toEqual([
        { type: "text", text: "read notes.txt and run echo hi" },
      ]);
      const calls = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [block] : [])),
      );
      expect(calls.map((call) => [call.id, call.tool])).toEqual([
        ["call_read_1", { name: "Read", input: { file_path: "/tmp/qwork/p/notes.txt" } }],
        [
          "call_shell_1",
          {
            name: "Bash",
            input: expect.objectContaining({ command: "echo hi", description: "say hi" }),
          },
        ],
      ]);
      const results = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_result" ? [block] : [])),
      );
      expect(results.map((result) => result.toolUseId)).toEqual(["call_read_1", "call_shell_1"]);
      expect(results[0]).toMatchObject({ content: "hello notes\n", isError: false });
      expect(warnings.map((warning) => warning.code)).toContain("qwen_code.system-record");
    });
  it("0.5.0: the session resumed with --resume appends to the same file and reads whole", () => {
    const transcript = qwenCodeCodec.toCommon(qwenCodeCodec.parse(read("qwen-0.5.0.jsonl")));
    const prompts = transcript.messages.flatMap((message) =>
      message.role === "user"
        ? message.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
        : [],
    );
    expect(prompts).toEqual(["read notes.txt and run echo hi", "and now?"]);
  });
  it("reads the 0.5.0–0.12.0 spellings read_file(absolute_path) and task as Read and Task", () => {
    expect(qwenToolToCanonical("read_file", { absolute_path: "/a", offset: 2 })).toEqual({
      name: "Read",
      input: { file_path: "/a", offset: 2 },
    });
    expect(
      qwenToolToCanonical("task", { description: "d", prompt: "p", subagent_type: "general" }),
    ).toEqual({
      name: "Task",
      input: { description: "d", prompt: "p", subagent_type: "general" },
    });
    // Control: a key neither spelling declares keeps the call raw, under its own name.
    expect(qwenToolToCanonical("read_file", { absolute_path: "/a", bogus: 1 })).toEqual({
      name: "Raw",
      toolName: "read_file",
      input: { absolute_path: "/a", bogus: 1 },
    });
  });
  it("control: the 0.1.x checkpoint and session document are not recordings", () => {
    const checkpoint = read("qwen-0.1.4.checkpoint-t1.json");
    // A JSON array of Gemini contents: the context preamble, its reply, then the chat.
    expect((JSON.parse(checkpoint) as { role: string }[]).map((content) => content.role)).toEqual([
      "user",
      "model",
      "user",
      "model",
      "user",
      "model",
    ]);
    const document = read("qwen-0.1.4.session.json");
    expect(JSON.parse(document)).toMatchObject({ messages: [{ type: "user" }, { type: "qwen" }] });
    for (const text of [checkpoint, document]) {
      expect(qwenCodeCodec.detect(text)).toBe(false);
      expect(() => qwenCodeCodec.toCommon(qwenCodeCodec.parse(text))).toThrow(TxcriptError);
    }
  });
});

describe("Qwen Code 0.24.4 subagent transcripts (the session file alone holds none; its load reads them: qwen-code-subagents.test.ts)", () => {
  const project = path.join(repoRoot, "fixtures/qwen-code/subagent/projects/-tmp-qwork-p");
  const parentId = "65e85728-5d51-4b93-a94c-d5f2f77c9721";
  const agentDir = path.join(project, "subagents", parentId);
  const agent = "agent-general-purpose-call_agent_1";
  it("sit beside chats/ under subagents/<parent id>/, records of the session's shape", () => {
    const parent = qwenCodeCodec.toCommon(
      qwenCodeCodec.parse(readFileSync(path.join(project, "chats", `${parentId}.jsonl`), "utf8")),
    );
    const meta = JSON.parse(readFileSync(path.join(agentDir, `${agent}.meta.json`), "utf8")) as {
      agentId: string;
      parentSessionId: string;
      toolUseId: string;
    };
    expect(meta.parentSessionId).toBe(parentId);
    // The meta names the parent's `agent` call (read as Task) that launched it.
    const launch = parent.messages
      .flatMap((message) => message.content)
      .find((block) => block.type === "tool_use" && block.id === meta.toolUseId);
    expect(launch).toMatchObject({ type: "tool_use", tool: { name: "Task" } });
    expect(parent.subagents).toBeUndefined();
    const text = readFileSync(path.join(agentDir, `${agent}.jsonl`), "utf8");
    expect(qwenCodeCodec.detect(text)).toBe(true);
    const session = qwenCodeCodec.parse(text);
    expect(qwenCodeCodec.serialize(session)).toBe(text);
    for (const line of session.lines)
      expect(line.value).toMatchObject({
        sessionId: parentId,
        isSidechain: true,
        agentId: meta.agentId,
      });
    const own = qwenCodeCodec.toCommon(session);
    expect(own.meta.id).toBe(parentId);
    expect(own.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });
});
