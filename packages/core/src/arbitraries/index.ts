// fast-check arbitraries for the whole Common model: every block kind, every
// typed tool (derived from its zod schema), Raw tools with arbitrary JSON
// input (including `__proto__`/`constructor` keys), JSON tool output, error
// results, images, usage and every stop reason, with hostile text. Codecs
// state their losses in a `project` function instead of narrowing these.
import fc from "fast-check";
import type { Json } from "../json.js";
import {
  type Block,
  type CompactionBlock,
  canonicalStopReasons,
  contextKinds,
  type Lineage,
  type Message,
  type MessageContext,
  type Meta,
  type Subagent,
  type Transcript,
  type Usage,
} from "../model.js";
import { fromCanonical, type Tool, toolInputSchemas, typedToolNames } from "../tools.js";
import { arbitraryFromSchema } from "./schema-arbitrary.js";

export { arbitraryFromSchema } from "./schema-arbitrary.js";

/** Text with astral Unicode, empty strings and edge whitespace. Always well-formed UTF-16. */
export const textArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.lorem({ maxCount: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\n",
      "\t",
      "  padded  ",
      "line one\nline two\n",
      "\r\n",
      "😀 astral 𝒳 text",
      "<command-name>/x</command-name>",
      "\u0000nul",
      '"quoted" \\ back',
    ),
  },
);

const nonEmptyText = textArbitrary.filter((text) => text.length > 0);

/** Round-trip through text: drops -0 and rebuilds objects exactly as a parser would (`__proto__` as data). */
function normalizeJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

const hostileKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
);

/** Any JSON value, with prototype-named keys in objects. No -0 (JSON cannot carry it). */
export const jsonArbitrary: fc.Arbitrary<Json> = fc
  .letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((value) => (Object.is(value, -0) ? 0 : value)),
      textArbitrary,
      fc.array(tie("value"), { maxLength: 4 }),
      fc
        .array(fc.tuple(fc.oneof(fc.string({ maxLength: 8 }), hostileKey), tie("value")), {
          maxLength: 4,
        })
        .map((entries) => {
          // JSON.parse semantics: `__proto__` becomes an own data property.
          const object = JSON.parse("{}") as Record<string, Json>;
          for (const [key, item] of entries)
            Object.defineProperty(object, key, {
              value: item,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          return object;
        }),
    ),
  }))
  .value.map(normalizeJson);

export const jsonObjectArbitrary: fc.Arbitrary<{ [key: string]: Json }> = fc
  .dictionary(fc.oneof(fc.string({ maxLength: 10 }), hostileKey), jsonArbitrary, { maxKeys: 4 })
  .map((value) => normalizeJson(value) as { [key: string]: Json });

/** Every typed tool, inputs derived from the tool schemas. */
export const typedToolArbitrary: fc.Arbitrary<Tool> = fc.oneof(
  ...typedToolNames.map((name) =>
    arbitraryFromSchema(toolInputSchemas[name], { string: textArbitrary }).map((input) =>
      fromCanonical(name, input as Json),
    ),
  ),
);

const toolNameArbitrary = fc.oneof(
  fc.constantFrom(
    "mcp__github__create_issue",
    "apply_patch",
    "finder",
    "oracle",
    "painter",
    "web_search",
    "skill",
    "NotebookEdit",
    "ExitPlanMode",
    "undo_edit",
  ),
  fc.constantFrom(...typedToolNames),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** Raw tools: any name (canonical names included) with any JSON input that the typed schema does not fit. */
export const rawToolArbitrary: fc.Arbitrary<Tool> = fc
  .tuple(toolNameArbitrary, fc.oneof(jsonObjectArbitrary, jsonArbitrary))
  .map(([name, input]) => fromCanonical(name, input));

export const toolArbitrary: fc.Arbitrary<Tool> = fc.oneof(
  { weight: 3, arbitrary: typedToolArbitrary },
  { weight: 2, arbitrary: rawToolArbitrary },
);

export const usageArbitrary: fc.Arbitrary<Usage> = fc.record(
  {
    inputTokens: fc.nat({ max: 2_000_000 }),
    outputTokens: fc.nat({ max: 200_000 }),
    cacheReadInputTokens: fc.nat({ max: 2_000_000 }),
    cacheCreationInputTokens: fc.nat({ max: 2_000_000 }),
    reasoningOutputTokens: fc.nat({ max: 100_000 }),
    costUsd: fc.oneof(
      fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 10_000),
      fc.constant(0),
    ),
  },
  {
    requiredKeys: [
      "inputTokens",
      "outputTokens",
      "cacheReadInputTokens",
      "cacheCreationInputTokens",
    ],
  },
);

export const stopReasonArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...canonicalStopReasons) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("model_context_window_exceeded", "content_filter", "custom reason"),
  },
);

const base64Arbitrary = fc
  .uint8Array({ maxLength: 48 })
  .map((bytes) => Buffer.from(bytes).toString("base64"));

export const imageBlockArbitrary: fc.Arbitrary<Block> = fc.record({
  type: fc.constant("image" as const),
  source: fc.record({
    type: fc.constant("base64" as const),
    mediaType: fc.constantFrom("image/png", "image/jpeg", "image/gif", "image/webp"),
    data: base64Arbitrary,
  }),
});

export const thinkingBlockArbitrary: fc.Arbitrary<Block> = fc.record(
  {
    type: fc.constant("thinking" as const),
    text: textArbitrary,
    signature: fc.base64String({ minLength: 4, maxLength: 40 }),
    encrypted: fc.base64String({ minLength: 4, maxLength: 40 }),
    provider: fc.constantFrom("anthropic", "openai"),
  },
  { requiredKeys: ["type", "text"] },
);

const toolUseIdArbitrary = fc.oneof(
  fc.stringMatching(/^toolu_[0-9A-Za-z]{8,24}$/),
  fc.stringMatching(/^TU-[0-9A-Za-z]{8,20}$/),
  fc.stringMatching(/^call_[0-9A-Za-z]{8,20}$/),
  fc.string({ minLength: 1, maxLength: 12 }),
);

export const toolResultContentArbitrary: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: textArbitrary },
  { weight: 1, arbitrary: jsonArbitrary },
);

/** Timestamps between 2020 and 2035 with millisecond precision. */
export const timestampArbitrary: fc.Arbitrary<string> = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

export const lineageArbitrary: fc.Arbitrary<Lineage> = fc.record({
  harness: fc.constantFrom("amp", "claude_code", "codex", "pi", "opencode", "gemini_cli"),
  id: fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 20 })),
  txcriptVersion: fc.constantFrom("0.1.0", "1.2.3-next.0"),
  convertedAt: fc
    .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2035, 0, 1) })
    .map((ms) => new Date(ms).toISOString()),
});

export const metaArbitrary: fc.Arbitrary<Meta> = fc.record(
  {
    id: fc.oneof(
      fc.uuid().map((id) => id.toLowerCase()),
      fc.uuid().map((id) => `T-${id.toLowerCase()}`),
      fc.string({ minLength: 1, maxLength: 30 }),
    ),
    timestamp: timestampArbitrary,
    cwd: fc.oneof(
      fc.constantFrom("/Users/alice/src/app", "/tmp/work dir/ü", "C:\\Users\\bob\\proj", "/"),
      textArbitrary.map((text) => `/home/${text}`),
    ),
    gitBranch: fc.oneof(fc.constantFrom("main", "feature/x-1", "fix/ünï"), nonEmptyText),
    title: textArbitrary,
    cliVersion: fc.constantFrom("2.0.76", "1.0.98", "0.0.1768018268-gcd18ba"),
    model: fc.constantFrom("claude-opus-4-5-20251101", "claude-sonnet-4-5", "gpt-5-codex"),
    lineage: lineageArbitrary,
  },
  { requiredKeys: ["id", "timestamp"] },
);

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

interface ExtrasPlan {
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

const extrasArbitrary: fc.Arbitrary<ExtrasPlan> = fc.record({
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

interface TurnPlan {
  prompt: Block[];
  assistant: {
    before: Block[];
    calls: { id: string; tool: Tool }[];
    stopReason?: string;
    usage?: Usage;
    model?: string;
  };
  /** For each call: its result (or none, an unanswered call). */
  results: ({ content: Json; isError: boolean } | null)[];
  after: Block[];
}

const promptBlocks = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: textArbitrary.map((text): Block => ({ type: "text", text })) },
    { weight: 1, arbitrary: imageBlockArbitrary },
  ),
  {
    minLength: 1,
    maxLength: 3,
  },
);

const assistantBlocks = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: textArbitrary.map((text): Block => ({ type: "text", text })) },
    { weight: 2, arbitrary: thinkingBlockArbitrary },
    { weight: 1, arbitrary: imageBlockArbitrary },
  ),
  { maxLength: 3 },
);

const turnArbitrary: fc.Arbitrary<TurnPlan> = fc.record({
  prompt: promptBlocks,
  assistant: fc.record(
    {
      before: assistantBlocks,
      calls: fc.array(fc.record({ id: toolUseIdArbitrary, tool: toolArbitrary }), { maxLength: 3 }),
      stopReason: stopReasonArbitrary,
      usage: usageArbitrary,
      model: fc.constantFrom("claude-opus-4-5-20251101", "claude-sonnet-4-5", "gpt-5-codex"),
    },
    { requiredKeys: ["before", "calls"] },
  ),
  results: fc.array(
    fc.option(fc.record({ content: toolResultContentArbitrary, isError: fc.boolean() }), {
      freq: 6,
    }),
    { maxLength: 3 },
  ),
  after: assistantBlocks,
});

export interface TranscriptArbitraryOptions {
  /** Most prompt → answer turns (default 4). */
  maxTurns?: number;
}

function subagentArbitraryFrom(
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
export function transcriptArbitrary(
  options: TranscriptArbitraryOptions = {},
): fc.Arbitrary<Transcript> {
  return fc
    .record({
      meta: metaArbitrary,
      turns: fc.array(turnArbitrary, { maxLength: options.maxTurns ?? 4 }),
      steps: fc.array(fc.nat({ max: 120_000 }), { minLength: 64, maxLength: 64 }),
      extras: extrasArbitrary,
    })
    .chain(({ meta, turns, steps, extras }) => {
      const messages: Message[] = [];
      let clock = Date.parse(meta.timestamp);
      let step = 0;
      const next = () => {
        clock += steps[step++ % steps.length] ?? 0;
        return new Date(Math.min(clock, Date.UTC(2099, 0, 1))).toISOString();
      };
      const used = new Set<string>();
      const callIds: string[] = [];
      const extrasAt = (index: number) => {
        for (const plan of extras.contexts)
          if (plan.at % (turns.length + 1) === index)
            messages.push({
              role: "user",
              content: [{ type: "text", text: plan.text }],
              timestamp: next(),
              context: plan.context,
            });
        if (extras.compaction && index > 0 && extras.compaction.at % (turns.length + 1) === index)
          messages.push({ role: "user", content: [extras.compaction.block], timestamp: next() });
      };
      turns.forEach((turn, turnIndex) => {
        extrasAt(turnIndex);
        messages.push({ role: "user", content: turn.prompt, timestamp: next() });
        const calls = turn.assistant.calls.map((call, index) => {
          let id = call.id;
          while (used.has(id)) id = `${id}_${index}`;
          used.add(id);
          callIds.push(id);
          return { ...call, id };
        });
        const assistant: Message = {
          role: "assistant",
          content: [
            ...turn.assistant.before,
            ...calls.map((call): Block => ({ type: "tool_use", id: call.id, tool: call.tool })),
          ],
          timestamp: next(),
        };
        if (turn.assistant.model !== undefined) assistant.model = turn.assistant.model;
        if (turn.assistant.stopReason !== undefined)
          assistant.stopReason =
            calls.length > 0 && turn.assistant.stopReason === "end_turn"
              ? "tool_use"
              : turn.assistant.stopReason;
        if (turn.assistant.usage !== undefined) assistant.usage = turn.assistant.usage;
        messages.push(assistant);
        const results: Block[] = [];
        calls.forEach((call, index) => {
          const result = turn.results[index];
          if (result)
            results.push({
              type: "tool_result",
              toolUseId: call.id,
              content: result.content,
              isError: result.isError,
            });
        });
        if (results.length > 0) {
          messages.push({ role: "user", content: results, timestamp: next() });
          if (turn.after.length > 0)
            messages.push({
              role: "assistant",
              content: turn.after,
              timestamp: next(),
              stopReason: "end_turn",
            });
        }
      });
      extrasAt(turns.length);
      return subagentArbitraryFrom(extras.subagents, callIds, clock).map(
        (subagents): Transcript =>
          subagents.length === 0 ? { meta, messages } : { meta, messages, subagents },
      );
    });
}

export { oddShapesArbitrary } from "./odd-shapes.js";
