// Response items (the conversation of a rollout) as Common blocks, and the
// grouping of blocks into messages: the rules both reading a rollout and
// codexProject follow. An item is user-side (a user message, a tool output)
// or assistant-side (an assistant message, reasoning, a tool call);
// consecutive items of one side form one message, and a token count or a
// turn context ends a message. Not the line loop: see codex-to-common.ts.
import type { Block, Message, MessageContext, Usage } from "@txcript/core";

export type Side = "user" | "assistant";

/** Codex's own injected user-role blocks, by their opening, and the source each reads as. */
const injectedOpenings: readonly [string, string][] = [
  ["<environment_context>", "environment_context"],
  ["<user_instructions>", "user_instructions"],
  ["<subagent_notification>", "subagent_notification"],
  ["<turn_aborted>", "turn_aborted"],
  ["<user_shell_command>", "user_shell_command"],
  ["# AGENTS.md instructions for ", "AGENTS.md"],
];

/** The source of a user-role item Codex injected, judged by its first text; undefined for a prompt. */
export function injectedSource(firstText: string | undefined): string | undefined {
  if (firstText === undefined) return undefined;
  const text = firstText.trimStart();
  for (const [opening, source] of injectedOpenings) if (text.startsWith(opening)) return source;
  return undefined;
}

/** `data:<type>;base64,<data>` as an image source, else undefined. */
export function imageFromDataUrl(url: string): Block | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return {
    type: "image",
    source: { type: "base64", mediaType: match[1] as string, data: match[2] as string },
  };
}

/**
 * Groups blocks into Common messages as a rollout reads: `add` appends to the
 * open message of the same side or opens one; `context` and `compaction`
 * stand alone; `usage` goes to the last assistant message when it has none,
 * and `close` (token count, turn context) ends the open message.
 */
export class MessageGrouper {
  readonly messages: Message[] = [];
  #open: Message | undefined;

  add(side: Side, block: Block, timestamp: string, model: string | undefined): void {
    if (this.#open !== undefined && this.#open.role === side) {
      this.#open.content.push(block);
      return;
    }
    const message: Message = { role: side, content: [block], timestamp };
    if (side === "assistant" && model !== undefined) message.model = model;
    this.messages.push(message);
    this.#open = message;
  }

  alone(blocks: Block[], timestamp: string, context?: MessageContext): void {
    this.#open = undefined;
    const message: Message = { role: "user", content: blocks, timestamp };
    if (context !== undefined) message.context = context;
    this.messages.push(message);
  }

  /** Usage for the last assistant message, when it has none yet. Returns whether it was taken. */
  usage(usage: Usage): boolean {
    let taken = false;
    const last = this.messages.findLast((message) => message.role === "assistant");
    if (last !== undefined && last.usage === undefined && last.context === undefined) {
      last.usage = usage;
      taken = true;
    }
    this.#open = undefined;
    return taken;
  }

  close(): void {
    this.#open = undefined;
  }
}
