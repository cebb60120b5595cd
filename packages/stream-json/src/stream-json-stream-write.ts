// A stream-json capture written from a stream of parts (core's stream.ts),
// with the text and warnings of serialize(commonToStreamJson(t)): the same
// captureWriter steps, given the messages as they come. The init line
// comes first but lists the tools the body uses and takes the uuid after
// the body's, so one replay writes the body silently first, keeping only
// those tools, the uuid count and the subagents' call ids; then the init
// line, the body as it is read (noting which of those call ids the main
// messages hold, for the nesting check), and the result line. Subagents
// follow the messages in the stream and are planned together (Claude
// dialect), so they are held until the messages end: memory grows with
// the subagents, not with the main conversation.
//
// Written to a file, the replay is not needed: streamJsonWriteHeadLast
// (core's HeadLastWriter) writes the body and the result line as they are
// read and gives the init line last, which core's writeFileAtomic puts
// first. Without the replay it cannot know which main calls the subagents
// link to, so it keeps every main call id when subagents are announced.
import {
  type CodecOptions,
  type HeadLast,
  type Message,
  type StreamInput,
  type StreamPart,
  type Subagent,
  splitMeta,
  TxcriptError,
} from "@txcript/core";
import {
  type CaptureBodySource,
  captureWriter,
  type StreamJsonWriteOptions,
} from "./common-to-stream-json.js";
import { harness, serializeCapture } from "./stream-json-lines.js";

/** The body source of the parts after a meta: messages as they come, then the subagents held. */
function bodySource(
  rest: Iterator<StreamPart>,
  announced: boolean,
  onMessage: (message: Message) => void,
): CaptureBodySource & { held: () => readonly Subagent[]; calls: Set<string> } {
  const held: Subagent[] = [];
  const calls = new Set<string>();
  const messages = function* (): Generator<Message> {
    for (let next = rest.next(); !next.done; next = rest.next()) {
      const part = next.value;
      if (part.kind === "message") {
        onMessage(part.message);
        yield part.message;
      } else if (part.kind === "subagent") held.push(part.subagent);
    }
  };
  return {
    messages: messages(),
    // Read after the messages, so every subagent is held (and the order checked).
    subagents: () => (announced ? { list: held, mainCalls: calls } : undefined),
    held: () => held,
    calls,
  };
}

/** Every call id a subagent tree is linked to. */
function linkedCalls(subagents: readonly Subagent[], into: Set<string>): Set<string> {
  for (const subagent of subagents) {
    if (subagent.toolUseId !== undefined) into.add(subagent.toolUseId);
    linkedCalls(subagent.subagents ?? [], into);
  }
  return into;
}

function line(value: Parameters<typeof serializeCapture>[0]["lines"][number]["value"]): string {
  return serializeCapture({ lines: [{ value }], finalNewline: true });
}

function changed(what: string): TxcriptError {
  return new TxcriptError("MISMATCH", `the transcript's ${what} changed between the two passes`, {
    harness,
    hint: "the input changed while it was read, or this is a bug in txcript's streaming writer",
  });
}

/** The capture text for a stream of parts, a line and its newline at a time. */
export function* streamJsonWriteStream(
  input: StreamInput,
  options: CodecOptions,
): Generator<string> {
  const writeOptions = options as StreamJsonWriteOptions;
  const { onWarning: _, ...silentOptions } = writeOptions;
  const { meta, subagents: announced, rest } = splitMeta(input.parts);
  // Pass one (a replay, silent): the tools, the uuid count, the subagents' calls.
  const ahead = splitMeta(input.replay());
  const preview = captureWriter(ahead.meta, silentOptions);
  const previewSource = bodySource(ahead.rest, ahead.subagents, () => {});
  for (const _line of preview.body(previewSource));
  const tools = preview.tools();
  const at = preview.serial();
  const linked = linkedCalls(previewSource.held(), new Set());
  // Pass two: the lines, in order.
  const writer = captureWriter(meta, writeOptions);
  const source = bodySource(rest, announced, (message) => {
    if (linked.size === 0) return;
    for (const block of message.content)
      if (block.type === "tool_use" && linked.has(block.id)) source.calls.add(block.id);
  });
  yield line(writer.init(tools, at));
  for (const value of writer.body(source)) yield line(value);
  if (writer.serial() !== at) throw changed("messages");
  if (JSON.stringify(writer.tools()) !== JSON.stringify(tools)) throw changed("tools");
  writer.take();
  yield line(writer.result());
}

/**
 * The capture text for a stream of parts with its init line last (core's HeadLastWriter): the
 * body and the result line as the parts are read, then `head()`, the init line listing the tools
 * the body used. `head()` + `rest` is serialize(commonToStreamJson(t)); the parts are read once.
 */
export function streamJsonWriteHeadLast(input: StreamInput, options: CodecOptions): HeadLast {
  const { meta, subagents: announced, rest } = splitMeta(input.parts);
  const writer = captureWriter(meta, options as StreamJsonWriteOptions);
  // The nesting check asks whether a subagent's call is a main call: with subagents, every one.
  const source = bodySource(rest, announced, (message) => {
    if (!announced) return;
    for (const block of message.content) if (block.type === "tool_use") source.calls.add(block.id);
  });
  let at: number | undefined;
  const lines = function* (): Generator<string> {
    for (const value of writer.body(source)) yield line(value);
    // The init line's serial, taken where the whole writer takes it: after the body's.
    at = writer.take();
    yield line(writer.result());
  };
  return {
    rest: lines(),
    head: () => {
      // A caller's mistake, not the input's: HeadLast asks for the rest first.
      if (at === undefined) throw new Error("head() before the rest was written");
      return line(writer.init(writer.tools(), at));
    },
  };
}
