// A Common generator for shapes the main generator never makes but the
// model allows, so every codec's `project` is checked beyond the common
// path: results on assistant messages, orphan results, results in a later
// user message, text after tool_use, duplicate tool ids, thinking on user
// messages, slash commands and model calls on user messages, model fields on
// user messages, empty messages, extra compaction markers, nested subagents
// and context messages anywhere.
import fc from "fast-check";
import type { Block, Message, Transcript } from "../model.js";
import { transcriptArbitrary } from "./index.js";

type Mutation = (messages: Message[], pick: number, step: number) => Message[];

const at = (messages: Message[], pick: number) => pick % Math.max(1, messages.length);

const mutations: Mutation[] = [
  // Merge a user message into the assistant message before it (results land on the assistant).
  (messages, pick) => {
    const index = at(messages, pick);
    const message = messages[index];
    const previous = messages[index - 1];
    if (message?.role !== "user" || previous?.role !== "assistant") return messages;
    const merged: Message = { ...previous, content: [...previous.content, ...message.content] };
    return [...messages.slice(0, index - 1), merged, ...messages.slice(index + 1)];
  },
  // A slash command, with or without output, inside a user message.
  (messages, pick, step) => {
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    const id = `cmd${step}`;
    const content: Block[] = [
      { type: "text", text: "before" },
      {
        type: "tool_use",
        id,
        tool: {
          name: "Command",
          input:
            pick % 2 ? { command: "/compact" } : { command: "review", args: pick % 3 ? "src" : "" },
        },
      },
    ];
    if (pick % 4 !== 0)
      content.push({
        type: "tool_result",
        toolUseId: id,
        content: pick % 5 ? "ok" : { a: 1 },
        isError: pick % 7 === 0,
      });
    return [
      ...messages.slice(0, index),
      { role: "user", content, timestamp },
      ...messages.slice(index),
    ];
  },
  // A model tool call on a user message.
  (messages, pick, step) =>
    messages.map((message, index) =>
      index === at(messages, pick) && message.role === "user"
        ? {
            ...message,
            content: [
              ...message.content,
              {
                type: "tool_use",
                id: `u${step}`,
                tool: { name: "Raw", toolName: "x", input: [pick] },
              },
            ],
          }
        : message,
    ),
  // Model fields on a user message.
  (messages, pick) =>
    messages.map((message, index) =>
      index === at(messages, pick) && message.role === "user"
        ? {
            ...message,
            model: "m",
            stopReason: "end_turn",
            usage: {
              inputTokens: 1,
              outputTokens: 2,
              cacheReadInputTokens: 3,
              cacheCreationInputTokens: 4,
            },
          }
        : message,
    ),
  // An orphan result: a tool_result whose call is nowhere.
  (messages, pick, step) => {
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    const orphan: Message = {
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: `orphan${step}`,
          content: "lost",
          isError: pick % 2 === 0,
        },
      ],
      timestamp,
    };
    return [...messages.slice(0, index), orphan, ...messages.slice(index)];
  },
  // A result moved to a later user message (another prompt comes between call and result).
  (messages, pick) => {
    const index = messages.findIndex(
      (message, position) =>
        position >= at(messages, pick) &&
        message.role === "user" &&
        message.content.some((block) => block.type === "tool_result"),
    );
    const message = messages[index];
    if (index < 0 || message === undefined) return messages;
    const prompt: Message = {
      role: "user",
      content: [{ type: "text", text: "meanwhile" }],
      timestamp: message.timestamp,
    };
    return [...messages.slice(0, index), prompt, message, ...messages.slice(index + 1)];
  },
  // Text after a tool_use in the same assistant message.
  (messages, pick) =>
    messages.map((message, index) =>
      index >= at(messages, pick) &&
      message.role === "assistant" &&
      message.content.some((block) => block.type === "tool_use")
        ? { ...message, content: [...message.content, { type: "text", text: "after the call" }] }
        : message,
    ),
  // A duplicate tool id: a second call reusing the first call's id.
  (messages, pick) => {
    const first = messages
      .flatMap((message) => message.content)
      .find((block) => block.type === "tool_use");
    if (first?.type !== "tool_use") return messages;
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    const again: Message = {
      role: "assistant",
      content: [
        { type: "tool_use", id: first.id, tool: { name: "Raw", toolName: "again", input: {} } },
      ],
      timestamp,
    };
    return [...messages.slice(0, index), again, ...messages.slice(index)];
  },
  // Thinking on a user message.
  (messages, pick) =>
    messages.map((message, index) =>
      index === at(messages, pick) && message.role === "user"
        ? {
            ...message,
            content: [{ type: "thinking", text: "user-side thought" }, ...message.content],
          }
        : message,
    ),
  // A compaction marker anywhere, possibly twice.
  (messages, pick) => {
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    const marker: Message = {
      role: "user",
      content: [
        {
          type: "compaction",
          summary: `summary ${pick}`,
          ...(pick % 2 ? { trigger: "auto" } : {}),
        },
      ],
      timestamp,
    };
    return [...messages.slice(0, index), marker, ...messages.slice(index)];
  },
  // A context message anywhere (an injected environment description, a late system prompt).
  (messages, pick) => {
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    const context: Message = {
      role: "user",
      content: [{ type: "text", text: `<environment_context>${pick}</environment_context>` }],
      timestamp,
      context: pick % 2 ? { kind: "injected", source: "environment_context" } : { kind: "system" },
    };
    return [...messages.slice(0, index), context, ...messages.slice(index)];
  },
  // An empty message of either role.
  (messages, pick) => {
    const index = at(messages, pick);
    const timestamp = messages[index]?.timestamp ?? "2026-01-01T00:00:00.000Z";
    return [
      ...messages.slice(0, index),
      { role: pick % 2 ? "user" : "assistant", content: [], timestamp },
      ...messages.slice(index),
    ];
  },
];

/** Transcripts from the main generator, each bent by up to four odd-shape mutations. */
export function oddShapesArbitrary(): fc.Arbitrary<Transcript> {
  return fc
    .tuple(
      transcriptArbitrary(),
      fc.array(fc.tuple(fc.nat(mutations.length - 1), fc.nat(50)), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([transcript, steps, nestDeeper]) => {
      let messages = transcript.messages;
      steps.forEach(([which, pick], step) => {
        messages = (mutations[which] as Mutation)(messages, pick, step);
      });
      const result: Transcript = { ...transcript, messages };
      // Nested subagents two levels down, linked to a call inside the first subagent.
      const first = transcript.subagents?.[0];
      const innerCall = first?.messages
        .flatMap((message) => message.content)
        .find((block) => block.type === "tool_use");
      if (nestDeeper && first && innerCall?.type === "tool_use" && first.subagents === undefined)
        result.subagents = [
          {
            ...first,
            subagents: [
              {
                id: `${first.id}-deep`,
                toolUseId: innerCall.id,
                messages: first.messages.slice(0, 1),
              },
            ],
          },
          ...(transcript.subagents?.slice(1) ?? []),
        ];
      return result;
    });
}
