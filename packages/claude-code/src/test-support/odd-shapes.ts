// A Common generator for shapes the core generator never makes but the
// model allows — results on assistant messages, slash commands and model
// tool calls on user messages, model fields on user messages, empty and
// merged messages — so claudeCodeProject is checked beyond the common path.
import type { Block, Message, Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";

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

export function oddShapesArbitrary(): fc.Arbitrary<Transcript> {
  return fc
    .tuple(
      transcriptArbitrary(),
      fc.array(fc.tuple(fc.nat(mutations.length - 1), fc.nat(50)), { maxLength: 4 }),
    )
    .map(([transcript, steps]) => {
      let messages = transcript.messages;
      steps.forEach(([which, pick], step) => {
        messages = (mutations[which] as Mutation)(messages, pick, step);
      });
      return { meta: transcript.meta, messages };
    });
}
