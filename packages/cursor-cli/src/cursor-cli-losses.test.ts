import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonObject, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { cursorCliCodec } from "./cursor-cli-codec.js";
import { cursorCliLosses } from "./cursor-cli-losses.js";
import type { CursorCliChat } from "./cursor-cli-schema.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A chat document with one user and one assistant message, nothing a reader must drop but times. */
function chat(change: (chat: CursorCliChat) => void = () => {}): CursorCliChat {
  const base: CursorCliChat = {
    cursorCliChat: 1,
    agentId: "c1",
    meta: {
      agentId: "c1",
      name: "t",
      createdAt: 1781256145540,
      lastUsedModel: "m",
      latestRootBlobId: "r",
    },
    redactedMetaKeys: [],
    rootBlobId: "r",
    workspaceUris: ["file:///home/a"],
    turnBlobIds: [],
    otherRootFields: [],
    messages: [
      { blobId: "1", message: { role: "user", content: "hi" } },
      {
        blobId: "2",
        message: {
          role: "assistant",
          content: [
            { type: "tool-call", toolCallId: "k", toolName: "Shell", args: { command: "ls" } },
          ],
        },
      },
      {
        blobId: "3",
        message: {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "k", toolName: "Shell", result: "x" }],
        },
      },
    ],
    missingBlobIds: [],
    digestMismatches: [],
  };
  change(base);
  return base;
}

function readCodes(document: CursorCliChat): string[] {
  const warnings: Warning[] = [];
  cursorCliCodec.toCommon(document, { onWarning: (warning) => warnings.push(warning) });
  return [...new Set(warnings.map((warning) => warning.code))].sort();
}

const message = (index: number, document: CursorCliChat): JsonObject =>
  document.messages[index]?.message as JsonObject;
const parts = (index: number, document: CursorCliChat) =>
  message(index, document).content as JsonObject[];

describe("reading: every dropped field is a named loss, and a chat without it names none", () => {
  const control = readCodes(chat());
  it("control: a plain chat names only the missing message times", () => {
    expect(control).toEqual(["cursor_cli.message-times"]);
  });
  const cases: [string, (document: CursorCliChat) => void][] = [
    ["cursor_cli.encryption-key", (d) => d.redactedMetaKeys.push("blobEncryptionKey")],
    ["cursor_cli.meta-field", (d) => Object.assign(d.meta, { mode: "default" })],
    ["cursor_cli.turns", (d) => d.turnBlobIds.push("t")],
    ["cursor_cli.root-field", (d) => d.otherRootFields.push(5)],
    ["cursor_cli.workspace", (d) => d.workspaceUris.push("file:///second")],
    ["cursor_cli.missing-blob", (d) => d.missingBlobIds.push("m")],
    ["cursor_cli.blob-digest", (d) => d.digestMismatches.push("r")],
    ["cursor_cli.created-at", (d) => Object.assign(d.meta, { createdAt: "yesterday" })],
    ["cursor_cli.role", (d) => Object.assign(message(0, d), { role: "developer" })],
    ["cursor_cli.message-field", (d) => Object.assign(message(1, d), { providerOptions: {} })],
    ["cursor_cli.part", (d) => parts(1, d).push({ type: "image", image: "AA==" })],
    [
      "cursor_cli.part-field",
      (d) => Object.assign(parts(2, d)[0] as JsonObject, { experimental_content: [] }),
    ],
    ["cursor_cli.call-id", (d) => delete (parts(1, d)[0] as JsonObject).toolCallId],
  ];
  for (const [code, change] of cases)
    it(`${code}`, () => {
      const codes = readCodes(chat(change));
      expect(codes).toContain(code);
      expect(control).not.toContain(code);
    });
  it("a role that is a deeply nested list is named, not stringified whole", () => {
    let deep: unknown = [];
    for (let index = 0; index < 100_000; index += 1) deep = [deep];
    expect(readCodes(chat((d) => Object.assign(message(0, d), { role: deep })))).toContain(
      "cursor_cli.role",
    );
  });
  it("a tool result naming another tool than its call names that, and not when the names agree", () => {
    expect(
      readCodes(chat((d) => Object.assign(parts(2, d)[0] as JsonObject, { toolName: "Read" }))),
    ).toContain("cursor_cli.part-field");
  });
  it("the first workspace URI is the cwd, percent-decoded", () => {
    const document = chat((d) => {
      d.workspaceUris = ["file:///Users/example/My%20Project"];
    });
    expect(cursorCliCodec.toCommon(document).meta.cwd).toBe("/Users/example/My Project");
    expect(
      cursorCliCodec.toCommon(
        chat((d) => {
          d.workspaceUris = ["vscode-remote://x/y"];
        }),
      ).meta.cwd,
    ).toBeUndefined();
  });
});

const at = "2026-01-01T00:00:00.000Z";
function transcript(messages: Message[], meta: Partial<Transcript["meta"]> = {}): Transcript {
  return { meta: { id: "s", timestamp: at, ...meta }, messages };
}
function writeCodes(input: Transcript): string[] {
  const warnings: Warning[] = [];
  cursorCliCodec.fromCommon(input, { onWarning: (warning) => warnings.push(warning) });
  return [...new Set(warnings.map((warning) => warning.code))].sort();
}

describe("writing txcript's document: every loss is named, and a transcript without it names none", () => {
  const plain: Message = { role: "user", content: [{ type: "text", text: "hi" }], timestamp: at };
  it("control: a plain transcript writes without a warning and reads back equal", () => {
    const input = transcript(
      [plain, { role: "assistant", content: [{ type: "text", text: "yo" }], timestamp: at }],
      { cwd: "/a b", title: "t", model: "m" },
    );
    expect(writeCodes(input)).toEqual([]);
    expect(cursorCliCodec.toCommon(cursorCliCodec.fromCommon(input))).toEqual(input);
  });
  const cases: [string, Transcript][] = [
    ["cursor_cli.subagents", { ...transcript([plain]), subagents: [{ id: "a", messages: [] }] }],
    [
      "cursor_cli.image",
      transcript([
        {
          ...plain,
          content: [
            { type: "image", source: { type: "base64", mediaType: "image/png", data: "AA==" } },
          ],
        },
      ]),
    ],
    [
      "cursor_cli.compaction",
      transcript([{ ...plain, content: [{ type: "compaction", summary: "s" }] }]),
    ],
    [
      "cursor_cli.thinking-extras",
      transcript([
        {
          role: "assistant",
          content: [{ type: "thinking", text: "t", signature: "x" }],
          timestamp: at,
        },
      ]),
    ],
    ["cursor_cli.message-meta", transcript([{ ...plain, model: "m" }])],
    ["cursor_cli.timestamps", transcript([{ ...plain, timestamp: "2026-01-01T00:00:01.000Z" }])],
    [
      "cursor_cli.split",
      transcript([
        {
          role: "assistant",
          content: [{ type: "tool_result", toolUseId: "k", content: "x", isError: false }],
          timestamp: at,
        },
      ]),
    ],
    [
      "cursor_cli.context",
      transcript([{ ...plain, context: { kind: "injected", source: "AGENTS.md" } }]),
    ],
    ["cursor_cli.session-meta", transcript([plain], { gitBranch: "main" })],
    ["cursor_cli.cwd", transcript([plain], { cwd: "relative/dir" })],
  ];
  for (const [code, input] of cases)
    it(`${code}`, () => {
      expect(writeCodes(input)).toContain(code);
    });
});

describe("the loss list", () => {
  it("is what docs/formats/cursor-cli.md lists, code for code", () => {
    const page = readFileSync(path.join(repoRoot, "docs/formats/cursor-cli.md"), "utf8");
    const documented = [...page.matchAll(/`(cursor_cli\.[a-z-]+)`/g)].map((match) => match[1]);
    expect([...new Set(documented)].sort()).toEqual(
      cursorCliLosses.map((loss) => loss.code).sort(),
    );
  });
});
