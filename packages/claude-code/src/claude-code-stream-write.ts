// A Claude Code session written from a stream of parts (core's stream.ts),
// with the text and warnings of commonToClaudeCodeLines: the same
// claudeCodeLinesOf, given the messages as they come, a replay of them for
// the write plan (which slash commands there are, which calls are
// answered: one pass, three with commands), and the subagents once the
// messages are written (they follow the messages in the stream). When the
// reader's meta part vouches that no user message holds a tool call (so no
// slash command), the plan reads ahead for each call's answer instead, and
// replays only if one is not within claude-code-write-plan's window.
import {
  type CodecOptions,
  restMessages,
  type StreamInput,
  type Subagent,
  splitMeta,
} from "@txcript/core";
import { claudeCodeLinesOf } from "./common-to-claude-code.js";

export function* claudeCodeWriteStream(
  input: StreamInput,
  options: CodecOptions,
): Generator<string> {
  const { meta, subagents: announced, userToolCalls, rest } = splitMeta(input.parts);
  const subagents: Subagent[] = [];
  const source = {
    meta,
    userToolCalls,
    messages: restMessages(rest, (subagent) => subagents.push(subagent)),
    replay: () => restMessages(splitMeta(input.replay()).rest),
    subagents: () => (announced ? subagents : undefined),
  };
  for (const line of claudeCodeLinesOf(source, options)) yield `${line}\n`;
}
