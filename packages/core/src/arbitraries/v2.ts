// Generators of the Common v2 additions: lineage, context marks, compaction
// markers (with the history the harness sent instead), and subagents linked
// to a call, unlinked, or nested.
import fc from "fast-check";
import type {
  Block,
  CompactionBlock,
  Lineage,
  Message,
  MessageContext,
  Subagent,
} from "../model.js";
import { contextKinds } from "../model.js";
import {
  assistantBlocks,
  textArbitrary,
  toolArbitrary,
  toolResultContentArbitrary,
  toolUseIdArbitrary,
} from "./base.js";

export const lineageArbitrary: fc.Arbitrary<Lineage> = fc.record({
  harness: fc.constantFrom("amp", "claude_code", "codex", "pi", "opencode", "gemini_cli"),
  id: fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 20 })),
  txcriptVersion: fc.constantFrom("0.1.0", "1.2.3-next.0"),
  convertedAt: fc
    .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2035, 0, 1) })
    .map((ms) => new Date(ms).toISOString()),
});

export const messageContextArbitrary: fc.Arbitrary<MessageContext> = fc.record(
  {
    kind: fc.constantFrom(...contextKinds),
    source: fc.constantFrom("AGENTS.md", "CLAUDE.md", "environment_context", "base_instructions"),
  },
  { requiredKeys: ["kind"] },
);

/** A short plain exchange (text, thinking, paired tool calls): the inside of a compaction's history or a subagent. */
function shortExchange(start: number): fc.Arbitrary<Message[]> {
  // Built on first use: the block arbitraries it reads are defined further down.
  return fc.constant(null).chain(() =>
    fc
      .array(
        fc.tuple(
          textArbitrary,
          assistantBlocks,
          fc.option(
            fc.record({
              id: toolUseIdArbitrary,
              tool: toolArbitrary,
              content: toolResultContentArbitrary,
              isError: fc.boolean(),
            }),
            { freq: 2 },
          ),
        ),
        { minLength: 1, maxLength: 2 },
      )
      .map((turns) => {
        const messages: Message[] = [];
        let clock = start;
        const next = () => {
          clock += 1000;
          return new Date(clock).toISOString();
        };
        for (const [prompt, blocks, call] of turns) {
          messages.push({
            role: "user",
            content: [{ type: "text", text: prompt }],
            timestamp: next(),
          });
          const content: Block[] = [...blocks];
          if (call) content.push({ type: "tool_use", id: `sub_${call.id}`, tool: call.tool });
          messages.push({ role: "assistant", content, timestamp: next() });
          if (call)
            messages.push({
              role: "user",
              content: [
                {
                  type: "tool_result",
                  toolUseId: `sub_${call.id}`,
                  content: call.content,
                  isError: call.isError,
                },
              ],
              timestamp: next(),
            });
        }
        return messages;
      }),
  );
}

export const compactionBlockArbitrary: fc.Arbitrary<CompactionBlock> = fc
  .record(
    {
      summary: textArbitrary,
      trigger: fc.constantFrom("manual", "auto"),
      preTokens: fc.nat({ max: 1_000_000 }),
      history: shortExchange(Date.UTC(2026, 0, 1)),
    },
    { requiredKeys: ["summary"] },
  )
  .map((fields) => ({ type: "compaction" as const, ...fields }));

export interface ExtrasPlan {
  /** Where a compaction marker goes (an index into the turns), and its block. */
  compaction: { at: number; block: CompactionBlock } | null;
  /** A context message first (system prompt) and/or one injected later. */
  contexts: { at: number; context: MessageContext; text: string }[];
  /** Subagents: for which call (by index among all calls), and a linked or unlinked one. */
  subagents: {
    call: number | null;
    id: string;
    agentType?: string;
    title?: string;
    nested: boolean;
  }[];
}

export const extrasArbitrary: fc.Arbitrary<ExtrasPlan> = fc.record({
  compaction: fc.option(fc.record({ at: fc.nat(8), block: compactionBlockArbitrary }), { freq: 3 }),
  contexts: fc.array(
    fc.record({ at: fc.nat(8), context: messageContextArbitrary, text: textArbitrary }),
    { maxLength: 2 },
  ),
  subagents: fc.array(
    fc.record(
      {
        call: fc.option(fc.nat(8), { freq: 4 }),
        id: fc.oneof(fc.stringMatching(/^agent-[0-9a-f]{8}$/), fc.uuid()),
        agentType: fc.constantFrom("general-purpose", "Explore", "worker"),
        title: textArbitrary,
        nested: fc.boolean(),
      },
      { requiredKeys: ["call", "id", "nested"] },
    ),
    { maxLength: 2 },
  ),
});

export function subagentArbitraryFrom(
  extras: ExtrasPlan["subagents"],
  callIds: string[],
  start: number,
): fc.Arbitrary<Subagent[]> {
  if (extras.length === 0) return fc.constant([]);
  return fc
    .tuple(...extras.map(() => fc.tuple(shortExchange(start), shortExchange(start + 60_000))))
    .map((exchanges) => {
      const used = new Set<string>();
      return extras.flatMap((plan, index) => {
        if (used.has(plan.id)) return [];
        used.add(plan.id);
        const [messages, nestedMessages] = exchanges[index] as [Message[], Message[]];
        const subagent: Subagent = { id: plan.id, messages };
        const call =
          plan.call === null || callIds.length === 0
            ? undefined
            : callIds[plan.call % callIds.length];
        if (call !== undefined) subagent.toolUseId = call;
        if (plan.agentType !== undefined) subagent.agentType = plan.agentType;
        if (plan.title !== undefined) subagent.title = plan.title;
        const innerCall = messages
          .flatMap((message) => message.content)
          .find((block) => block.type === "tool_use");
        if (plan.nested && innerCall?.type === "tool_use")
          subagent.subagents = [
            { id: `${plan.id}-nested`, toolUseId: innerCall.id, messages: nestedMessages },
          ];
        return [subagent];
      });
    });
}

/**
 * Whole transcripts shaped as conversations: user prompts, assistant turns
 * with tool calls, tool results on the following user message paired by a
 * unique id (some calls left unanswered), a closing assistant message, and
 * timestamps that never go backwards.
 */
