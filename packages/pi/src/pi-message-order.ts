// Common messages in the order pi records them: a user or context message
// that comes between an assistant's tool calls and their results (a prompt
// typed while the tools ran, a developer note Codex injected) is written
// after those results, where pi's own agent loop puts steering messages.
// Left in place, pi 0.73.1 sends it as an interruption: it answers the
// calls with "No result provided" and the real results go out as orphans.
// Not a reader: nothing is reordered when a session is read.
import { type ConversionOptions, type Message, warn } from "@txcript/core";
import { piLoss } from "./pi-losses.js";

/**
 * The reordering a message at a time (the whole writer, the stream writer
 * and the planner all go through it): `push` gives the messages to write
 * now, `end` the ones still held. Only the messages between an assistant
 * message and the last result of its calls are ever held.
 */
export class PiMessageOrder {
  readonly #options: ConversionOptions | undefined;
  /** The calls of the last assistant message that no result has answered yet. */
  readonly #pending = new Set<string>();
  #held: Message[] = [];
  /** Whether a result was written past the held messages (they are then moved). */
  #passed = false;

  constructor(options?: ConversionOptions) {
    this.#options = options;
  }

  push(message: Message): Message[] {
    if (message.role === "assistant") {
      const out = [...this.#release(), message];
      for (const block of message.content)
        if (block.type === "tool_use") this.#pending.add(block.id);
      this.#answer(message);
      return out;
    }
    if (this.#pending.size === 0) return [message];
    const answers = message.content.some(
      (block) => block.type === "tool_result" && this.#pending.has(block.toolUseId),
    );
    // A compaction is not moved: it ends the wait, the held messages go before it.
    if (!answers && !message.content.some((block) => block.type === "compaction")) {
      this.#held.push(message);
      return [];
    }
    if (!answers) return [...this.#release(), message];
    this.#answer(message);
    if (this.#held.length > 0) this.#passed = true;
    return this.#pending.size === 0 ? [message, ...this.#release()] : [message];
  }

  end(): Message[] {
    return this.#release();
  }

  #answer(message: Message): void {
    for (const block of message.content)
      if (block.type === "tool_result") this.#pending.delete(block.toolUseId);
  }

  #release(): Message[] {
    this.#pending.clear();
    const held = this.#held;
    this.#held = [];
    const moved = this.#passed;
    this.#passed = false;
    if (moved)
      warn(
        this.#options,
        piLoss.messageOrder,
        "a message between tool calls and their results was written after the results",
        undefined,
        held.length,
      );
    return held;
  }
}

/** The messages in pi's order, as they come; each moved message is reported through `options`. */
export function* piMessageOrder(
  messages: Iterable<Message>,
  options?: ConversionOptions,
): Generator<Message> {
  const order = new PiMessageOrder(options);
  for (const message of messages) yield* order.push(message);
  yield* order.end();
}
