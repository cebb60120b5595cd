// No orphan in any target: for generated sessions (the common shapes and
// the odd ones: slash commands and model calls on user messages, orphan
// results, results on assistant messages, results a prompt later), every
// writer `continue` can target writes no tool result without an earlier
// call the program sends as a call, and keeps every call of the source
// that had its result. The written files are read by small parsers written
// here from the format pages (docs/formats/*.md), not by txcript's readers:
// an API (OpenAI-style, Anthropic, Gemini) rejects a tool result whose call
// it was not sent.
import type { Transcript } from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters, lawRuns } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHarness, loadRegistry } from "../src/harnesses.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

/** The calls and results of a written file, in file order. */
interface Pairs {
  /** Each item: a call or a result, with its id. */
  items: { kind: "call" | "result"; id: string }[];
  /** Calls a program sends with their result folded in (OpenCode's tool parts): counted as paired. */
  paired?: number;
}

type Line = Record<string, unknown>;
const jsonLines = (text: string): Line[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);
const objects = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter(
        (item): item is Record<string, unknown> => typeof item === "object" && item !== null,
      )
    : [];

/** docs/formats/claude-code.md: tool_use blocks on assistant lines, tool_result blocks on user lines. */
function claudePairs(text: string): Pairs {
  const items: Pairs["items"] = [];
  for (const line of jsonLines(text)) {
    const message = line.message as { content?: unknown } | undefined;
    for (const block of objects(message?.content)) {
      if (line.type === "assistant" && block.type === "tool_use")
        items.push({ kind: "call", id: String(block.id) });
      if (line.type === "user" && block.type === "tool_result")
        items.push({ kind: "result", id: String(block.tool_use_id) });
      // A call or result in the other role is one too (and fails the pairing below).
      if (line.type === "user" && block.type === "tool_use")
        items.push({ kind: "result", id: `user-call:${String(block.id)}` });
      if (line.type === "assistant" && block.type === "tool_result")
        items.push({ kind: "result", id: String(block.tool_use_id) });
    }
  }
  return { items };
}

/** docs/formats/codex.md: response_item payloads `*_call` with call_id, and their `*_call_output`. */
function codexPairs(text: string): Pairs {
  const items: Pairs["items"] = [];
  for (const line of jsonLines(text)) {
    if (line.type !== "response_item") continue;
    const payload = line.payload as { type?: string; call_id?: string };
    if (typeof payload.call_id !== "string" || typeof payload.type !== "string") continue;
    if (payload.type.endsWith("_output")) items.push({ kind: "result", id: payload.call_id });
    else if (payload.type.endsWith("_call")) items.push({ kind: "call", id: payload.call_id });
  }
  return { items };
}

/** docs/formats/pi.md: toolCall blocks of assistant messages, toolResult messages by toolCallId. */
function piPairs(text: string): Pairs {
  const items: Pairs["items"] = [];
  for (const line of jsonLines(text)) {
    if (line.type !== "message") continue;
    const message = line.message as { role?: string; content?: unknown; toolCallId?: string };
    if (message.role === "assistant")
      for (const block of objects(message.content))
        if (block.type === "toolCall") items.push({ kind: "call", id: String(block.id) });
    if (message.role === "toolResult")
      items.push({ kind: "result", id: String(message.toolCallId) });
  }
  return { items };
}

/** docs/formats/gemini-cli.md: functionCall parts of gemini records, functionResponse parts of user records. */
function geminiPairs(text: string): Pairs {
  const items: Pairs["items"] = [];
  for (const line of jsonLines(text).slice(1)) {
    for (const part of objects(line.content)) {
      const call = part.functionCall as { id?: string } | undefined;
      const response = part.functionResponse as { id?: string } | undefined;
      // A functionCall in a user turn or a functionResponse in a model turn is rejected: never a pair.
      if (call !== undefined)
        items.push(
          line.type === "gemini"
            ? { kind: "call", id: String(call.id) }
            : { kind: "result", id: `user-call:${String(call.id)}` },
        );
      if (response !== undefined)
        items.push({
          kind: "result",
          id: line.type === "user" ? String(response.id) : `model-response:${String(response.id)}`,
        });
    }
  }
  return { items };
}

/**
 * docs/formats/opencode.md: a `tool` part holds a call and, once its state
 * is completed or error, its result; a part pending or running is a call
 * without one. A result has no part of its own, so none can be orphaned.
 */
function opencodePairs(text: string): Pairs {
  const document = JSON.parse(text) as { messages: { parts: unknown }[] };
  let paired = 0;
  const items: Pairs["items"] = [];
  for (const message of document.messages)
    for (const part of objects(message.parts)) {
      if (part.type !== "tool") continue;
      const status = (part.state as { status?: string } | undefined)?.status;
      if (status === "completed" || status === "error") paired += 1;
      else items.push({ kind: "call", id: String(part.callID) });
    }
  return { items, paired };
}

/**
 * docs/formats/gemini-cli.md: the Gemini API wants each functionCall of a
 * model turn answered by a functionResponse before the next model turn.
 * The ids of the calls that are not.
 */
function unansweredGeminiCalls(text: string): string[] {
  const unanswered: string[] = [];
  let open = new Set<string>();
  for (const line of jsonLines(text).slice(1)) {
    if (line.type === "gemini") {
      unanswered.push(...open);
      open = new Set();
    }
    for (const part of objects(line.content)) {
      const call = part.functionCall as { id?: string } | undefined;
      const response = part.functionResponse as { id?: string } | undefined;
      if (call !== undefined && line.type === "gemini") open.add(String(call.id));
      if (response !== undefined && line.type === "user") open.delete(String(response.id));
    }
  }
  return [...unanswered, ...open];
}

const targets: [string, (text: string) => Pairs][] = [
  ["claude_code", claudePairs],
  ["codex", codexPairs],
  ["pi", piPairs],
  ["gemini_cli", geminiPairs],
  ["opencode", opencodePairs],
];

/** Results with no earlier call of the same id, and how many calls got their result. */
function check(pairs: Pairs): { orphans: string[]; paired: number } {
  const calls = new Map<string, number>();
  const orphans: string[] = [];
  let paired = pairs.paired ?? 0;
  for (const item of pairs.items) {
    if (item.kind === "call") calls.set(item.id, (calls.get(item.id) ?? 0) + 1);
    else {
      const open = calls.get(item.id) ?? 0;
      if (open === 0) orphans.push(item.id);
      else {
        calls.set(item.id, open - 1);
        paired += 1;
      }
    }
  }
  return { orphans, paired };
}

/**
 * The source's pairs every target must keep: a call on an assistant message
 * (its id used once) whose one result is on a user message after it.
 */
function sourcePairs(transcript: Transcript): number {
  const uses = new Map<string, number>();
  for (const message of transcript.messages)
    for (const block of message.content)
      if (block.type === "tool_use" || block.type === "tool_result") {
        const id = block.type === "tool_use" ? block.id : block.toolUseId;
        uses.set(id, (uses.get(id) ?? 0) + 1);
      }
  let count = 0;
  const called = new Set<string>();
  for (const message of transcript.messages)
    for (const block of message.content) {
      if (block.type === "tool_use" && message.role === "assistant") called.add(block.id);
      if (
        block.type === "tool_result" &&
        message.role === "user" &&
        called.has(block.toolUseId) &&
        uses.get(block.toolUseId) === 2
      )
        count += 1;
    }
  return count;
}

const sessions = fc.oneof(transcriptArbitrary(), oddShapesArbitrary());

describe("no orphan tool result in any target's written file", () => {
  for (const [target, pairsOf] of targets) {
    const harness = findHarness(target);
    it(`${target}: every result follows its call, and every call of the source with its result keeps it`, () => {
      fc.assert(
        fc.property(sessions, ({ subagents: _, ...transcript }) => {
          // The main session only: subagents are files (or sessions) of their own.
          const text = harness.codec.serialize(
            harness.codec.fromCommon(transcript, {
              ...harness.writeOptions?.({ from: "common" }),
              onWarning: () => {},
            }),
          );
          const { orphans, paired } = check(pairsOf(text));
          expect(orphans).toEqual([]);
          expect(paired).toBeGreaterThanOrEqual(sourcePairs(transcript));
        }),
        lawParameters(lawRuns(200)),
      );
    }, 300_000);
  }

  it("gemini_cli: every functionCall of a model turn is answered by the user turns before the next model turn", () => {
    const harness = findHarness("gemini_cli");
    fc.assert(
      fc.property(sessions, ({ subagents: _, ...transcript }) => {
        const text = harness.codec.serialize(
          harness.codec.fromCommon(transcript, { onWarning: () => {} }),
        );
        expect(unansweredGeminiCalls(text)).toEqual([]);
      }),
      lawParameters(lawRuns(200)),
    );
  }, 300_000);

  it("the check sees an orphan: a pi file with a toolResult whose call is user text (the control)", () => {
    const broken = [
      JSON.stringify({ type: "session", version: 3, id: "x" }),
      JSON.stringify({
        type: "message",
        message: { role: "user", content: [{ type: "text", text: "[tool call Command {}]" }] },
      }),
      JSON.stringify({
        type: "message",
        message: { role: "toolResult", toolCallId: "command-1", content: [] },
      }),
    ].join("\n");
    expect(check(piPairs(broken)).orphans).toEqual(["command-1"]);
    const userCall = [
      JSON.stringify({ sessionId: "x" }),
      JSON.stringify({ type: "user", content: [{ functionCall: { id: "c", name: "n" } }] }),
      JSON.stringify({ type: "user", content: [{ functionResponse: { id: "c", name: "n" } }] }),
    ].join("\n");
    expect(check(geminiPairs(userCall)).orphans).toEqual(["user-call:c", "c"]);
    const unanswered = [
      JSON.stringify({ sessionId: "x" }),
      JSON.stringify({
        type: "gemini",
        content: [{ functionCall: { id: "a" } }, { functionCall: { id: "b" } }],
      }),
      JSON.stringify({ type: "user", content: [{ functionResponse: { id: "a" } }] }),
      JSON.stringify({ type: "gemini", content: [{ text: "next" }] }),
    ].join("\n");
    expect(unansweredGeminiCalls(unanswered)).toEqual(["b"]);
  });
});
