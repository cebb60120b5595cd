// Anthropic stop reasons, and the merge of one API message that a harness
// wrote as several lines. Claude Code (and Claude stream-json) write one
// line per content block as it streams, each repeating message.id and the
// usage so far; tool results may be written between two parts when a tool
// ran before the message finished. Common keeps one assistant message per
// API message: the blocks of every part in order, the last stop reason,
// and the usage counted once.
import type { Json } from "../json.js";
import type { Block, Message, StopReason, Usage } from "../model.js";
import { largestUsage } from "./usage.js";

/** The stop reasons the Messages API documents. */
export const anthropicStopReasons = [
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
] as const;

/** A `stop_reason` value → Common: any non-empty string, verbatim; null, "" or absent → none. */
export function anthropicStopReasonToCommon(value: Json | undefined): StopReason | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Whether the API itself could have sent this stop reason (others are a harness's own words). */
export function isAnthropicStopReason(reason: string): boolean {
  return (anthropicStopReasons as readonly string[]).includes(reason);
}

/** One line's part of an assistant message, as read. */
export interface AnthropicMessagePart {
  readonly content: readonly Block[];
  readonly stopReason?: StopReason | undefined;
  readonly usage?: Usage | undefined;
}

/**
 * Adds a later part to the message its first part started: its blocks
 * after the blocks so far, its stop reason when it has one, and the
 * usage of the part with the largest total (largestUsage).
 */
export function mergeAnthropicPart(message: Message, part: AnthropicMessagePart): void {
  message.content.push(...part.content);
  if (part.stopReason !== undefined) message.stopReason = part.stopReason;
  const usage = largestUsage(message.usage, part.usage);
  if (usage !== undefined) message.usage = usage;
}

/**
 * The assistant messages of one conversation by message.id, so each later
 * part finds the message its first part started — also when user lines
 * (tool results) were written between them.
 */
export class AnthropicSplitMessages {
  readonly #byId = new Map<string, Message>();

  /**
   * Merges `part` into the message started under `id` and returns true; or,
   * for a new id (or none), returns false: the caller adds the part as a new
   * message and hands it to `started`.
   */
  merge(id: string | undefined, part: AnthropicMessagePart): boolean {
    const known = id === undefined || id === "" ? undefined : this.#byId.get(id);
    if (known === undefined) return false;
    mergeAnthropicPart(known, part);
    return true;
  }

  /** Records the message a new id's first part became. */
  started(id: string | undefined, message: Message): void {
    if (id !== undefined && id !== "") this.#byId.set(id, message);
  }
}
