// A Gemini CLI recording written from a stream of parts (core's stream.ts),
// with the text and warnings of serialize(commonToGeminiCli(t)): the same
// geminiCliLinesOf, given the messages as they come. Nothing needs looking
// ahead (the metadata line is the meta's; a record's function-response
// names come from the calls before it), so there is no replay. The
// subagents follow the messages in the stream: each is written whole (it
// is one part) for its warnings, then let go, since a subagent's recording
// is a file of its own, never part of this text.
import {
  type CodecOptions,
  type Message,
  type StreamInput,
  type Subagent,
  splitMeta,
} from "@txcript/core";
import { type GeminiCliWriteOptions, geminiCliLinesOf } from "./common-to-gemini-cli.js";

export function* geminiCliWriteStream(
  input: StreamInput,
  options: CodecOptions,
): Generator<string> {
  const { meta, rest } = splitMeta(input.parts);
  // The first subagent part ends the messages; the rest follow it.
  let first: Subagent | undefined;
  const messages = function* (): Generator<Message> {
    for (let next = rest.next(); !next.done; next = rest.next()) {
      const part = next.value;
      if (part.kind === "message") yield part.message;
      else if (part.kind === "subagent") {
        first = part.subagent;
        return;
      }
    }
  };
  const subagents = function* (): Generator<Subagent> {
    if (first !== undefined) yield first;
    first = undefined;
    // Read to the end even without subagents: the order check runs there.
    for (let next = rest.next(); !next.done; next = rest.next())
      if (next.value.kind === "subagent") yield next.value.subagent;
  };
  const source = { meta, messages: messages(), subagents: subagents() };
  const lines = geminiCliLinesOf(source, options as GeminiCliWriteOptions, "main", () => {});
  for (const line of lines) yield `${line.text}\n`;
}
