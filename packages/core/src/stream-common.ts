// The Common document written in pieces: the text of
// `commonCodec.serialize(commonCodec.fromCommon(t))` from a stream of
// parts, one message at a time, so a session too long to be one string
// (`continue`'s archive of a 2 GB session) is written whole. The pieces are
// what JSON.stringify(document, null, 2) prints, element by element.

import { commonFormat } from "./common-format.js";
import { stringifyJson } from "./json.js";
import type { Message, Meta, Subagent } from "./model.js";
import { restMessages, type StreamInput, splitMeta } from "./stream.js";

function indented(value: unknown, depth: number): string {
  // A JSON text holds no raw newline but those of its indentation.
  return stringifyJson(value, 2, "common").replaceAll("\n", `\n${"  ".repeat(depth)}`);
}

function* array(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? "[\n    " : ",\n    "}${indented(item, 2)}`;
    first = false;
  }
  yield first ? "[]" : "\n  ]";
}

/** The Common document's text for a meta, its messages and (when given) its subagents. */
export function* commonDocumentPieces(
  meta: Meta,
  messages: Iterable<Message>,
  subagents?: () => readonly Subagent[] | undefined,
): Generator<string> {
  yield `{\n  "format": ${JSON.stringify(commonFormat)},\n  "meta": ${indented(meta, 1)},\n  "messages": `;
  yield* array(messages);
  const rest = subagents?.();
  if (rest !== undefined) {
    yield `,\n  "subagents": `;
    yield* array(rest);
  }
  yield "\n}\n";
}

/** A writeStream for the Common document (subagents, which follow the messages, are kept until the end). */
export function* commonWriteStream(input: StreamInput): Generator<string> {
  const { meta, subagents: announced, rest } = splitMeta(input.parts);
  const subagents: Subagent[] = [];
  yield* commonDocumentPieces(
    meta,
    restMessages(rest, (subagent) => subagents.push(subagent)),
    () => (announced ? subagents : undefined),
  );
}
