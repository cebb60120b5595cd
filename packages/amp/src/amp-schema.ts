// Amp's thread document as txcript keeps it: the parsed JSON itself (every
// key, in order, whatever the era), plus whether the text ended in a newline,
// so serialize(parse(s)) === s for any file Amp wrote — and, for a file with
// a number JSON.parse cannot hold digit for digit, the source text itself. The interfaces below
// describe the keys the codec reads and writes; they are views, not a schema
// the parser enforces (unknown keys, roles and block kinds pass through).
import {
  isJsonObject,
  type Json,
  type JsonObject,
  jsonPath,
  type ParseOptions,
  parseJson,
  quote,
  stringifyJson,
  TxcriptError,
} from "@txcript/core";
import { findInexactNumbers, type InexactNumbers } from "./amp-numbers.js";

/** The thread document: `{v, id, created, title, env, messages, ...}`, kept as parsed. */
export type AmpThreadDocument = JsonObject & { messages: Json[] };

/** The native body of the codec. */
export interface AmpThread {
  document: AmpThreadDocument;
  /**
   * Whether the text ends in "\n": `amp threads export` prints one, the
   * local-first CLI's `JSON.stringify(thread, null, 2)` writes none.
   */
  finalNewline: boolean;
  /**
   * Set by `parse` only when the text has a number JSON.parse cannot give
   * back digit for digit (an integer past 2^53, say): then `serialize`
   * returns `text` itself for as long as the document still renders as
   * `rendered` (what it rendered as when parsed), i.e. is unchanged. Once the
   * document changes, serialize writes it afresh, each such number as the
   * nearest double. Bodies built by fromCommon never have it.
   */
  source?: AmpSourceText;
}

/** The source text of a thread with inexact numbers; see `AmpThread.source`. */
export interface AmpSourceText {
  /** The text as parsed. */
  text: string;
  /** What `serialize` wrote for the document as parsed. */
  rendered: string;
  /** The first inexact number's JSON path, and how many there are. */
  inexact: InexactNumbers;
}

/** `env.initial`: the workspace trees and the client that created the thread. */
export interface AmpEnvironment {
  initial: {
    trees?: {
      uri?: string;
      displayName?: string;
      repository?: { type: string; ref?: string };
    }[];
    platform?: { client?: string; clientVersion?: string };
  };
}

export type AmpState =
  | { type: "complete"; stopReason?: string }
  | { type: "streaming" }
  | { type: "cancelled" };

export interface AmpUsage {
  model?: string;
  timestamp?: string;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  totalInputTokens?: number;
}

export type AmpToolRun =
  | { status: "done"; result?: Json }
  | { status: "error"; error?: { message?: string } }
  | { status: "cancelled" | "rejected-by-user"; reason?: string };

export type AmpBlock =
  | { type: "text"; text: string }
  | {
      type: "thinking";
      thinking: string;
      signature?: string;
      provider?: string;
      openAIReasoning?: { id?: string; encryptedContent?: string };
    }
  | { type: "tool_use"; id: string; name: string; input: Json; complete?: boolean }
  | { type: "tool_result"; toolUseID: string; run: AmpToolRun }
  | { type: "image"; source: { type: "base64"; mediaType: string; data: string } };

export interface AmpMessage {
  role: "user" | "assistant" | (string & {});
  messageId?: number;
  content: AmpBlock[];
  /** On prompts: `sentAt`, epoch milliseconds. */
  meta?: { sentAt?: number };
  state?: AmpState;
  usage?: AmpUsage;
}

/** One `usageLedger.events[]` entry: what @ccusage/amp counts tokens from. */
export interface AmpLedgerEvent {
  id: string;
  timestamp: string;
  model: string;
  credits: number;
  tokens: { input: number; output: number };
  operationType: string;
  fromMessageId: number;
  toMessageId: number;
}

export const harness = "amp";

export function invalidThread(
  message: string,
  path: (string | number)[],
  options: ParseOptions,
): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness,
    location: {
      ...(options.file === undefined ? {} : { file: options.file }),
      path: jsonPath(path),
    },
    hint: 'expected an Amp thread: {"v": …, "id": "T-…", "created": …, "messages": [{…}, …]}',
  });
}

/**
 * Text → AmpThread. Requires a JSON object whose `messages` is an array of
 * objects; everything else is kept as is.
 */
export function parseAmpThread(text: string, options: ParseOptions = {}): AmpThread {
  const value = parseJson(text, {
    harness,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
  if (!isJsonObject(value)) {
    throw invalidThread(
      `not an Amp thread: expected a JSON object, got ${quote(text, 40)}`,
      [],
      options,
    );
  }
  const messages = Object.hasOwn(value, "messages") ? value.messages : undefined;
  if (!Array.isArray(messages)) {
    throw invalidThread(
      "not an Amp thread: `messages` is missing or not an array",
      ["messages"],
      options,
    );
  }
  const bad = messages.findIndex((message) => !isJsonObject(message));
  if (bad !== -1) {
    throw invalidThread("a message is not a JSON object", ["messages", bad], options);
  }
  const thread: AmpThread = {
    document: value as AmpThreadDocument,
    finalNewline: text.endsWith("\n"),
  };
  const inexact = findInexactNumbers(text);
  if (inexact !== undefined) thread.source = { text, rendered: render(thread), inexact };
  return thread;
}

function render(thread: AmpThread): string {
  const text = stringifyJson(thread.document, 2, harness);
  return thread.finalNewline ? `${text}\n` : text;
}

/**
 * AmpThread → text: 2-space JSON, as both the CLI and `amp threads export`
 * write it; the source text instead while a parsed document with inexact
 * numbers is unchanged (see `AmpThread.source`).
 */
export function serializeAmpThread(thread: AmpThread): string {
  const text = render(thread);
  const source = thread.source;
  return source !== undefined && text === source.rendered ? source.text : text;
}

export { looksLikeAmpThread } from "./amp-sniff.js";

/**
 * The top-level key txcript writes a converted thread's lineage under
 * (`{harness, id, txcriptVersion, convertedAt}`): Amp keeps top-level keys
 * it does not know, and this one says where the thread came from.
 */
export const lineageKey = "txcriptLineage";
