// Codex rollouts streamed (core's stream.ts): read line by line and written
// message by message, with the text and warnings of the whole path.
//
// Reading is two passes over the lines. The first reads only as far as the
// session's model is settled (the first response, usually a few lines in)
// with no warnings, so the meta part can come first. The second reads every
// line through the same RolloutReader as codexToCommon and hands out each
// message once no later line can change it (finalCount). A `{session,
// items}` document is one JSON value: it is read whole, as before.
//
// Writing takes the first message (the base instructions go into
// session_meta), looks ahead on a replay for the first prompt (the early
// user_message echo), and renders the rest as they come through the same
// codexLinesOf as commonToCodexLines.
import {
  type CodecOptions,
  type LineSource,
  type Message,
  restMessages,
  type StreamInput,
  type StreamPart,
  splitMeta,
  TxcriptError,
  transcriptParts,
} from "@txcript/core";
import { baseInstructionsOf } from "./codex-content.js";
import { looksLikeDocument, parseRollout, RolloutLineParser } from "./codex-schema.js";
import { codexToCommon, RolloutReader } from "./codex-to-common.js";
import { codexLinesOf } from "./common-to-codex.js";

function fileOf(options: CodecOptions): { file?: string } {
  return typeof options.file === "string" ? { file: options.file } : {};
}

/** Whether the rollout is a `{session, items}` document: its first non-blank text starts one. */
function isDocument(lines: LineSource): boolean {
  for (const line of lines()) {
    const start = line.trimStart();
    if (start !== "") return looksLikeDocument(start);
  }
  return false;
}

/** Pass one: the meta as the whole read will have it, read only as far as it is settled. */
function settledMeta(lines: LineSource, options: CodecOptions) {
  const parser = new RolloutLineParser(fileOf(options));
  const reader = new RolloutReader(undefined);
  let index = 0;
  for (const text of lines()) {
    reader.line(parser.line(text), index);
    index += 1;
    // What was read is not kept: only the meta and the model are wanted here.
    reader.messages.length = 0;
    if (reader.meta !== undefined && reader.modelSettled) return reader.currentMeta();
  }
  // Read to the end: an empty rollout is refused before any part is handed out.
  parser.end();
  return reader.currentMeta();
}

/**
 * The parts of a rollout read line by line (pass `file` in the options for
 * error locations). Its meta, messages and warnings are codexToCommon's.
 */
export function* codexReadStream(lines: LineSource, options: CodecOptions): Generator<StreamPart> {
  if (isDocument(lines)) {
    const text = [...lines()].join("\n");
    yield* transcriptParts(codexToCommon(parseRollout(text, fileOf(options)), options));
    return;
  }
  const meta = settledMeta(lines, options);
  yield { kind: "meta", meta, subagents: false };
  const parser = new RolloutLineParser(fileOf(options));
  const reader = new RolloutReader(options);
  let index = 0;
  for (const text of lines()) {
    reader.line(parser.line(text), index);
    index += 1;
    const final = reader.finalCount();
    if (final > 0)
      for (const message of reader.messages.splice(0, final)) yield { kind: "message", message };
  }
  parser.end();
  const read = reader.finish();
  for (const message of reader.messages.splice(0)) yield { kind: "message", message };
  if (JSON.stringify(read) !== JSON.stringify(meta))
    throw new TxcriptError("MISMATCH", "the rollout's meta changed between the two passes", {
      harness: "codex",
      ...(options.file === undefined ? {} : { location: fileOf(options) }),
      hint: "the file changed while it was read, or this is a bug in txcript's streaming reader",
    });
}

/** How many messages the writer keeps from the stream while it looks for the first prompt (then it replays). */
const lookaheadMessages = 256;

/** The rollout text for a stream of parts, a line and its newline at a time. */
export function* codexWriteStream(input: StreamInput, options: CodecOptions): Generator<string> {
  const { meta, subagents, rest } = splitMeta(input.parts);
  const main = restMessages(rest);
  // The messages taken from the stream ahead of writing: the first (the base
  // instructions?) and as many as the first prompt needs, usually one or two.
  const buffer: Message[] = [];
  const pull = (): boolean => {
    const next = main.next();
    if (next.done) return false;
    buffer.push(next.value);
    return true;
  };
  pull();
  const first = buffer[0];
  const instructions = baseInstructionsOf({ meta, messages: first === undefined ? [] : [first] });
  const lookahead = function* (): Generator<Message> {
    let index = 0;
    for (;;) {
      if (index < buffer.length) yield buffer[index++] as Message;
      else if (buffer.length >= lookaheadMessages || !pull()) break;
    }
    if (buffer.length < lookaheadMessages) return;
    // Past what is kept: the same messages again from a replay, from there on.
    let skip = index;
    for (const message of restMessages(splitMeta(input.replay()).rest)) {
      if (skip > 0) skip -= 1;
      else yield message;
    }
  };
  const messages = function* (): Generator<Message> {
    while (buffer.length > 0) yield buffer.shift() as Message;
    for (let next = main.next(); !next.done; next = main.next()) yield next.value;
  };
  const source = {
    meta,
    subagents,
    instructions,
    skipFirst: instructions !== undefined,
    messages: messages(),
    lookahead,
  };
  for (const line of codexLinesOf(source, options)) yield `${line}\n`;
}
