// An Amp thread written from a stream of parts (core's stream.ts), with the
// text and warnings of serialize(commonToAmp(t)): the same steps
// (common-to-amp.ts), given the messages as they come. A thread is one JSON
// document, 2-space indented, whose keys before `messages` need two facts
// about the messages (`nextMessageId`, their count; Meta.model's loss, the
// first assistant model) and whose `usageLedger` after them gathers from
// every message. So one silent replay counts them first; then the head of
// the document is written, each message as it is read (indented into its
// place), and the tail once they end. Memory holds one message and the
// ledger's events (a few numbers per assistant turn with usage).
//
// The head and tail are the whole write's own rendering of the document
// with one placeholder message: the lines before and after it. A thread
// with no messages is written whole (there is nothing to stream).
//
// Written to a file, the replay is not needed: ampWriteHeadLast (core's
// HeadLastWriter) writes each message as it is read and the tail, and
// gives the head last, which core's writeFileAtomic puts first. The
// write's first warnings (the id, Meta.model, the subagents) need facts
// about all the messages, and the whole write gives them before the
// messages' own, so those wait, folded by kind (a WarningCollector: memory
// grows with the kinds of loss, not with the messages), until the end.
import {
  type CodecOptions,
  type HeadLast,
  type Json,
  type Message,
  type StreamInput,
  splitMeta,
  stringifyJson,
  TxcriptError,
  type Warning,
  WarningCollector,
} from "@txcript/core";
import { harness, serializeAmpThread } from "./amp-schema.js";
import {
  type AmpLookahead,
  AmpMessageWriter,
  type AmpWriteOptions,
  ampDocument,
  ampEnvironment,
  startAmpThread,
} from "./common-to-amp.js";

/** Stands for the messages in the rendered document: a line of its own, 4 spaces in. */
const placeholder = "\u0000txcript-messages";
const placeholderLine = `\n    ${JSON.stringify(placeholder)}`;

/** The `index`th message as it sits in the `messages` array of a 2-space document. */
function messagePiece(index: number, message: Json): string {
  const text = `\n    ${stringifyJson(message, 2, harness).replaceAll("\n", "\n    ")}`;
  return index === 0 ? text : `,${text}`;
}

/** A document rendered with the placeholder message: its text before the messages, and after. */
function aroundMessages(text: string): [before: string, after: string] {
  const at = text.indexOf(placeholderLine);
  return [text.slice(0, at), text.slice(at + placeholderLine.length)];
}

/** The replay's facts, read without its warnings. */
function lookahead(input: StreamInput): AmpLookahead {
  let firstModel: string | undefined;
  let messages = 0;
  let subagents = 0;
  for (const part of input.replay()) {
    if (part.kind === "message") {
      messages += 1;
      const message = part.message;
      if (firstModel === undefined && message.role === "assistant" && message.model !== undefined)
        firstModel = message.model;
    } else if (part.kind === "subagent") subagents += 1;
  }
  return { firstModel, messages, subagents };
}

function changed(what: string): TxcriptError {
  return new TxcriptError("MISMATCH", `the transcript's ${what} changed between the two passes`, {
    harness,
    hint: "the input changed while it was read, or this is a bug in txcript's streaming writer",
  });
}

/** The Amp thread text for a stream of parts, a message at a time. */
export function* ampWriteStream(input: StreamInput, options: CodecOptions): Generator<string> {
  const writeOptions = options as AmpWriteOptions;
  const { meta, rest } = splitMeta(input.parts);
  const ahead = lookahead(input);
  const id = startAmpThread(meta, ahead, writeOptions);
  // The environment's warning (an ill-formed cwd) comes after the messages' in the whole write.
  const later: Warning[] = [];
  const env = ampEnvironment(meta, {
    ...writeOptions,
    onWarning: (warning) => later.push(warning),
  });
  const writer = new AmpMessageWriter(meta, writeOptions);
  const render = () =>
    serializeAmpThread({
      document: ampDocument(meta, id, env, [placeholder], writer.events, ahead.messages),
      finalNewline: false,
    });
  if (ahead.messages === 0) {
    // Nothing to stream: the whole write's document, once the parts are read (and checked).
    for (let next = rest.next(); !next.done; next = rest.next())
      if (next.value.kind === "message") throw changed("messages");
    for (const warning of later) writeOptions.onWarning?.(warning);
    yield serializeAmpThread({
      document: ampDocument(meta, id, env, [], writer.events, 0),
      finalNewline: false,
    });
    return;
  }
  yield aroundMessages(render())[0];
  let count = 0;
  for (let next = rest.next(); !next.done; next = rest.next()) {
    const part = next.value;
    if (part.kind !== "message") continue;
    if (count === ahead.messages) throw changed("messages");
    yield messagePiece(count, writer.write(part.message as Message) as unknown as Json);
    count += 1;
  }
  if (count !== ahead.messages) throw changed("messages");
  for (const warning of later) writeOptions.onWarning?.(warning);
  yield aroundMessages(render())[1];
}

/**
 * The Amp thread text for a stream of parts with its head last (core's HeadLastWriter): each
 * message as it is read and the tail, then `head()`, the document before the messages (the
 * whole document when there are none). `head()` + `rest` is serializeAmpThread(commonToAmp(t)),
 * with its warnings in its order; the parts are read once.
 */
export function ampWriteHeadLast(input: StreamInput, options: CodecOptions): HeadLast {
  const writeOptions = options as AmpWriteOptions;
  const { meta, rest } = splitMeta(input.parts);
  // The messages' warnings, held until the write's first warnings can be given.
  const held = new WarningCollector();
  const writer = new AmpMessageWriter(meta, { ...writeOptions, onWarning: held.add });
  const later: Warning[] = [];
  const env = ampEnvironment(meta, {
    ...writeOptions,
    onWarning: (warning) => later.push(warning),
  });
  const ahead: AmpLookahead = { firstModel: undefined, messages: 0, subagents: 0 };
  // The text before the messages, rendered once the rest is written (with the ledger they made).
  let head: string | undefined;
  const pieces = function* (): Generator<string> {
    for (let next = rest.next(); !next.done; next = rest.next()) {
      const part = next.value;
      if (part.kind === "subagent") ahead.subagents += 1;
      if (part.kind !== "message") continue;
      const message = part.message;
      if (ahead.firstModel === undefined && message.role === "assistant")
        ahead.firstModel = message.model;
      yield messagePiece(ahead.messages, writer.write(message) as unknown as Json);
      ahead.messages += 1;
    }
    const id = startAmpThread(meta, ahead, writeOptions);
    for (const warning of [...held.warnings, ...later]) writeOptions.onWarning?.(warning);
    const document = (messages: Json[]) =>
      serializeAmpThread({
        document: ampDocument(meta, id, env, messages, writer.events, ahead.messages),
        finalNewline: false,
      });
    if (ahead.messages === 0) {
      head = document([]);
      return;
    }
    const [before, after] = aroundMessages(document([placeholder]));
    head = before;
    yield after;
  };
  return {
    rest: pieces(),
    head: () => {
      // A caller's mistake, not the input's: HeadLast asks for the rest first.
      if (head === undefined) throw new Error("head() before the rest was written");
      return head;
    },
  };
}
