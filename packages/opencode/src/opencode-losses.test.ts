// Every field the OpenCode reader drops is named (issue 31, item 4): the six
// reading losses of docs/formats/opencode.md ("Losses", reading) are emitted
// with a count equal to the number of dropped fields, counted here by a
// counter written from that page's tables (not from the reader), on the real
// exports in ../shared/real/opencode and on a small export written below.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Json, JsonObject, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { realDir, realExports, realSkipReason } from "./test-support.js";

type Counts = Record<string, number>;

function read(text: string): Warning[] {
  const warnings: Warning[] = [];
  opencodeCodec.toCommon(opencodeCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  return warnings;
}

/** The warnings summed by code. */
function byCode(warnings: readonly Warning[]): Counts {
  const counts: Counts = {};
  for (const warning of warnings)
    counts[warning.code] = (counts[warning.code] ?? 0) + warning.count;
  return counts;
}

/** The count of one warning, found by its code and message. */
function countOf(warnings: readonly Warning[], code: string, message: string): number {
  return warnings
    .filter((warning) => warning.code === code && warning.message === message)
    .reduce((sum, warning) => sum + warning.count, 0);
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Own keys of `value` (an object) not in `keep`. */
const others = (value: Json | undefined, keep: readonly string[]): number =>
  isObject(value) ? Object.keys(value).filter((key) => !keep.includes(key)).length : 0;

/**
 * The dropped fields of an export, by loss code, counted from the format
 * page's tables: the session table's "none" row and `model.providerID`; the
 * message keys the page reads (role, time.created, and on an assistant
 * modelID, providerID, tokens, cost, finish, error, summary); the parts
 * table; a tool state's status, input, output, error and time.end. Parts
 * that carry nothing (opencode.unmodeled-part) and messages of other roles
 * are not counted: they are named whole. (No compaction in these exports.)
 */
function expectedCounts(document: JsonObject): Counts {
  const counts: Counts = {};
  const add = (code: string, count: number) => {
    if (count > 0) counts[code] = (counts[code] ?? 0) + count;
  };
  const info = document.info as JsonObject;
  add(
    "opencode.session-metadata",
    others(info, ["id", "title", "directory", "version", "time", "model"]),
  );
  add("opencode.session-metadata", others(info.time, ["created"]));
  add("opencode.session-metadata", others(info.model, ["id", "providerID"]));
  if (isObject(info.model) && "providerID" in info.model) add("opencode.provider", 1);
  for (const message of document.messages as JsonObject[]) {
    const head = message.info as JsonObject;
    const parts = message.parts as JsonObject[];
    if (head.role !== "user" && head.role !== "assistant") continue;
    const assistant = head.role === "assistant";
    const read = assistant
      ? ["role", "time", "modelID", "providerID", "tokens", "cost", "finish", "error", "summary"]
      : ["role", "time"];
    add("opencode.message-bookkeeping", others(head, read) + others(head.time, ["created"]));
    if (assistant && "providerID" in head) add("opencode.provider", 1);
    if (assistant && isObject(head.error)) add("opencode.message-error", 1);
    const context =
      !assistant &&
      parts.length > 0 &&
      parts.every((part) => part.type === "text" && part.synthetic === true);
    const steps = assistant ? parts.filter((part) => part.type === "step-start").length : 0;
    const finishes = parts.filter((part) => part.type === "step-finish");
    for (const part of parts) {
      switch (part.type) {
        case "step-start":
          add("opencode.part-bookkeeping", others(part, ["type"]));
          break;
        case "step-finish": {
          // Several steps in one message: each step-finish gives its step's usage, and its reason but the last's.
          const stepped = steps > 1;
          const last = part === finishes[finishes.length - 1];
          const keep = stepped ? ["type", "tokens", "cost", ...(last ? [] : ["reason"])] : ["type"];
          add("opencode.part-bookkeeping", others(part, keep));
          break;
        }
        case "text":
          if (typeof part.text !== "string") break;
          add(
            "opencode.part-bookkeeping",
            others(part, ["type", "text", ...(context ? ["synthetic"] : [])]),
          );
          break;
        case "reasoning": {
          if (typeof part.text !== "string") break;
          add("opencode.part-bookkeeping", others(part, ["type", "text", "metadata"]));
          // The first provider's signature / encrypted content is read; every other field is not.
          if (isObject(part.metadata))
            Object.keys(part.metadata).forEach((provider, index) => {
              const fields = (part.metadata as JsonObject)[provider];
              add(
                "opencode.part-bookkeeping",
                index === 0 && isObject(fields)
                  ? others(fields, ["signature", "reasoningEncryptedContent", "redactedData"])
                  : 1,
              );
            });
          break;
        }
        case "tool": {
          const state = part.state;
          if (!isObject(state) || typeof part.tool !== "string" || !(part.callID || part.id)) break;
          add(
            "opencode.part-bookkeeping",
            others(part, ["type", "callID", "tool", "state", "metadata"]),
          );
          if ("metadata" in part) add("opencode.tool-details", 1);
          const details = ["title", "metadata", "attachments", "raw"];
          add(
            "opencode.tool-details",
            Object.keys(state).filter((key) => details.includes(key)).length,
          );
          add("opencode.tool-details", others(state.time, ["end"]));
          add(
            "opencode.part-bookkeeping",
            others(state, ["status", "input", "output", "error", "time", ...details]),
          );
          break;
        }
      }
    }
  }
  return counts;
}

const readingCodes = [
  "opencode.provider",
  "opencode.session-metadata",
  "opencode.message-bookkeeping",
  "opencode.part-bookkeeping",
  "opencode.tool-details",
  "opencode.message-error",
];

/** The warnings of the six codes, summed by code. */
function emitted(warnings: readonly Warning[]): Counts {
  const counts = byCode(warnings);
  return Object.fromEntries(
    readingCodes.flatMap((code) => (counts[code] ? [[code, counts[code]]] : [])),
  );
}

describe.skipIf(realSkipReason !== undefined)(
  `real OpenCode exports: every dropped field named${realSkipReason ? ` (skipped: ${realSkipReason})` : ""}`,
  () => {
    for (const name of realExports)
      it(`${name}: each reading loss counts its dropped fields`, () => {
        const text = readFileSync(path.join(realDir, name), "utf8");
        const expected = expectedCounts(JSON.parse(text));
        // The counter finds something of each in both exports (the 1.2.20 one has no error).
        expect(Object.keys(expected).length).toBeGreaterThanOrEqual(5);
        expect(emitted(read(text))).toEqual(expected);
      });

    it("export-1.15.6: the tool titles and metadata objects, each counted on its own", () => {
      const text = readFileSync(path.join(realDir, "export-1.15.6-windows-mcp-Cap.json"), "utf8");
      const document = JSON.parse(text) as { messages: { parts: JsonObject[] }[] };
      const tools = document.messages.flatMap((message) =>
        message.parts.filter((part) => part.type === "tool" && isObject(part.state)),
      );
      const titles = tools.filter((part) => "title" in (part.state as JsonObject)).length;
      const metadata = tools.filter((part) => "metadata" in (part.state as JsonObject)).length;
      const providerMetadata = tools.filter((part) => "metadata" in part).length;
      expect([titles, metadata, providerMetadata]).toEqual([141, 142, 87]);
      const warnings = read(text);
      expect(countOf(warnings, "opencode.tool-details", "a tool's title was not carried")).toBe(
        titles,
      );
      expect(countOf(warnings, "opencode.tool-details", "a tool's metadata was not carried")).toBe(
        metadata,
      );
      expect(
        countOf(
          warnings,
          "opencode.tool-details",
          "a tool part's provider metadata was not carried",
        ),
      ).toBe(providerMetadata);
      // Three aborted turns.
      expect(byCode(warnings)["opencode.message-error"]).toBe(3);
    });
  },
);

/** A small export with one of each dropped field the format page names. */
const small = {
  info: {
    id: "ses_0123456789abABCDEFGHIJKLMN",
    slug: "small",
    projectID: "global",
    directory: "/work",
    title: "Small",
    version: "1.15.6",
    model: { id: "gpt-5", providerID: "openai", variant: "high" },
    share: { url: "https://example.invalid/s" },
    time: { created: 1780000000000, updated: 1780000009000 },
  },
  messages: [
    {
      info: {
        role: "user",
        time: { created: 1780000001000 },
        agent: "build",
        model: { providerID: "openai", modelID: "gpt-5" },
        id: "msg_1",
        sessionID: "ses_0123456789abABCDEFGHIJKLMN",
      },
      parts: [
        { type: "text", text: "look", synthetic: true, id: "prt_1" },
        { type: "text", text: "please", time: { start: 1 }, id: "prt_2" },
      ],
    },
    {
      info: {
        role: "assistant",
        parentID: "msg_1",
        modelID: "gpt-5",
        providerID: "openai",
        mode: "build",
        time: { created: 1780000002000, completed: 1780000003000 },
        cost: 0,
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
        error: { name: "APIError", data: { message: "overloaded" } },
      },
      parts: [
        { type: "step-start", snapshot: "abc" },
        {
          type: "reasoning",
          text: "thinking",
          metadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAA" } },
        },
        {
          type: "tool",
          callID: "call_1",
          tool: "bash",
          metadata: { openai: { itemId: "fc_1" } },
          state: {
            status: "completed",
            input: { command: "ls" },
            output: "a",
            title: "ls",
            metadata: { exit: 0 },
            time: { start: 1780000002100, end: 1780000002200 },
          },
        },
        {
          type: "tool",
          callID: "call_2",
          tool: "bash",
          state: { status: "pending", input: {}, raw: '{"comm' },
        },
        { type: "step-finish", reason: "tool-calls", cost: 0, tokens: {} },
      ],
    },
  ],
};

describe("a small export: every dropped field named", () => {
  const text = `${JSON.stringify(small, null, 2)}\n`;
  const warnings = read(text);

  it("counts what the format page's tables name, field by field", () => {
    expect(emitted(warnings)).toEqual({
      // slug, projectID, share, time.updated, model.variant
      "opencode.session-metadata": 5,
      // the session model's, the assistant's
      "opencode.provider": 2,
      // user: agent, model, id, sessionID; assistant: parentID, mode, time.completed
      "opencode.message-bookkeeping": 7,
      // prt_1's id and synthetic (not a context message), prt_2's time and id, the snapshot,
      // the reasoning's itemId, the step-finish's reason, cost and tokens (one step)
      "opencode.part-bookkeeping": 9,
      // title, metadata, time.start, the part's provider metadata, the pending call's raw
      "opencode.tool-details": 5,
      "opencode.message-error": 1,
    });
    expect(emitted(warnings)).toEqual(expectedCounts(JSON.parse(text)));
  });

  it("says which field, and where it first was", () => {
    expect(warnings).toContainEqual({
      kind: "bookkeeping",
      code: "opencode.tool-details",
      message: "a tool's title was not carried",
      count: 1,
      path: "$.messages[1].parts[2].state.title",
    });
    expect(warnings).toContainEqual({
      kind: "degraded",
      code: "opencode.provider",
      message: "a providerID was not carried",
      count: 2,
      path: "$.info.model.providerID",
    });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: "opencode.message-error",
        path: "$.messages[1].info.error",
      }),
    );
  });

  it("a child session read as a subagent: its parentID is where it stands, not a loss", () => {
    const child = structuredClone(small) as unknown as { info: JsonObject };
    child.info = { ...child.info, id: "ses_0123456789abABCDEFGHIJKLMO", parentID: small.info.id };
    const childText = `${JSON.stringify(child, null, 2)}\n`;
    const parentID = (warnings: readonly Warning[]) =>
      countOf(warnings, "opencode.session-metadata", "the session's parentID was not carried");
    // Read on its own, the link has no slot.
    expect(parentID(read(childText))).toBe(1);
    const session = { ...opencodeCodec.parse(text), children: [opencodeCodec.parse(childText)] };
    const seen: Warning[] = [];
    const transcript = opencodeCodec.toCommon(session, {
      onWarning: (warning) => seen.push(warning),
    });
    expect(transcript.subagents?.map((subagent) => subagent.id)).toEqual([
      "ses_0123456789abABCDEFGHIJKLMO",
    ]);
    expect(parentID(seen)).toBe(0);
  });

  it("a context message's synthetic flags are its mark, not a loss", () => {
    const context = structuredClone(small);
    context.messages[0]?.parts.splice(1, 1);
    const counts = emitted(read(`${JSON.stringify(context, null, 2)}\n`));
    // prt_2 (time, id) is gone, and prt_1's synthetic flag makes the message context.
    expect(counts["opencode.part-bookkeeping"]).toBe(9 - 3);
    expect(counts).toEqual(expectedCounts(context as unknown as JsonObject));
  });
});
