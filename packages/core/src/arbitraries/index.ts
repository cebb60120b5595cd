// fast-check arbitraries for the whole Common model: every block kind, every
// typed tool (derived from its zod schema), Raw tools with arbitrary JSON
// input (including `__proto__`/`constructor` keys), JSON tool output, error
// results, images, usage and every stop reason, with hostile text, and every
// Common v2 addition. Codecs state their losses in a `project` function
// instead of narrowing these.
import fc from "fast-check";
import type { Json } from "../json.js";
import type { Block, Message, Meta, Transcript, Usage } from "../model.js";
import type { Tool } from "../tools.js";
import {
  assistantBlocks,
  nonEmptyText,
  promptBlocks,
  stopReasonArbitrary,
  textArbitrary,
  timestampArbitrary,
  toolArbitrary,
  toolResultContentArbitrary,
  toolUseIdArbitrary,
  usageArbitrary,
} from "./base.js";
import { extrasArbitrary, lineageArbitrary, subagentArbitraryFrom } from "./v2.js";

export {
  imageBlockArbitrary,
  jsonArbitrary,
  jsonObjectArbitrary,
  rawToolArbitrary,
  stopReasonArbitrary,
  textArbitrary,
  thinkingBlockArbitrary,
  timestampArbitrary,
  toolArbitrary,
  toolResultContentArbitrary,
  typedToolArbitrary,
  usageArbitrary,
} from "./base.js";
export { arbitraryFromSchema } from "./schema-arbitrary.js";
export { compactionBlockArbitrary, lineageArbitrary, messageContextArbitrary } from "./v2.js";
export { warningArbitrary } from "./warnings.js";

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
