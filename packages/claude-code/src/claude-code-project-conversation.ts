// The normalization of one conversation, as docs/formats/claude-code.md
// states it ("The normalization" and "Writing"): what a conversation reads
// back as once written as Claude Code lines. Written from the format doc as
// a description of the result, not from the writer: the law suite compares
// the two.
import type { Block, Json, Message, ToolResultBlock } from "@txcript/core";
import { stringifyJson, toCanonical } from "@txcript/core";
import { isAnthropicToolResultContent } from "@txcript/core/anthropic";
import { missingResultText } from "./claude-code-written.js";

/** A line to be, before it is read back: a message, and whether it is slash-command markup. */
interface Line {
  message: Message;
  /** "command": a lone Command call; "output": a command's result; undefined: block content. */
  markup?: "command" | "output";
}

const isCommand = (block: Block) => block.type === "tool_use" && block.tool.name === "Command";

function thinkingKept(block: Block & { type: "thinking" }): Block | undefined {
  if (block.provider !== undefined && block.provider !== "anthropic") return undefined;
  if (block.signature !== undefined)
    return {
      type: "thinking",
      text: block.text,
      signature: block.signature,
      provider: "anthropic",
    };
  if (block.encrypted !== undefined && block.text === "")
    return { type: "thinking", text: "", encrypted: block.encrypted, provider: "anthropic" };
  return undefined;
}

function jsonText(content: Json): string {
  return typeof content === "string" ? content : stringifyJson(content);
}

function user(content: Block[], timestamp: string, context?: Message["context"]): Message {
  return context === undefined
    ? { role: "user", content, timestamp }
    : { role: "user", content, timestamp, context };
}

/** What the conversation's user slash commands are, before any message is cut. */
function commandsOf(messages: readonly Message[]) {
  const ids = new Set<string>();
  for (const message of messages)
    if (message.role === "user")
      for (const block of message.content)
        if (block.type === "tool_use" && isCommand(block)) ids.add(block.id);
  const firstResult = new Map<string, ToolResultBlock>();
  for (const message of messages)
    for (const block of message.content)
      if (
        block.type === "tool_result" &&
        ids.has(block.toolUseId) &&
        !firstResult.has(block.toolUseId)
      )
        firstResult.set(block.toolUseId, block);
  return { ids, firstResult };
}

/** Cuts a message at its compaction blocks: markers alone, the rest keep the message's fields. */
function cutAtCompaction(message: Message): Message[] {
  if (!message.content.some((block) => block.type === "compaction")) return [message];
  const out: Message[] = [];
  let run: Block[] = [];
  const close = () => {
    if (run.length > 0) out.push({ ...message, content: run });
    run = [];
  };
  for (const block of message.content)
    if (block.type === "compaction") {
      close();
      const { history: _, ...marker } = block;
      out.push({ role: "user", content: [marker], timestamp: message.timestamp });
    } else run.push(block);
  close();
  return out;
}

const isMarker = (message: Message) =>
  message.role === "user" &&
  message.content.length === 1 &&
  message.content[0]?.type === "compaction";

/** The lines one message becomes, in order (blocks as given; ids and contents settled later). */
function linesOf(
  message: Message,
  commands: ReturnType<typeof commandsOf>,
  placed: Set<ToolResultBlock>,
): Line[] {
  if (isMarker(message)) return [{ message }];
  const blocks: Block[] = [];
  for (const block of message.content) {
    if (block.type !== "thinking") blocks.push(block);
    else {
      const kept = thinkingKept(block);
      if (kept !== undefined) blocks.push(kept);
    }
  }
  if (message.role === "assistant") {
    const { context: _c, ...fields } = message;
    const usage = fields.usage;
    if (usage !== undefined)
      fields.usage = {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cacheReadInputTokens: usage.cacheReadInputTokens,
        cacheCreationInputTokens: usage.cacheCreationInputTokens,
      };
    // Results move to a user message after it; a slash command's result goes with its command.
    const results = blocks.filter(
      (block) =>
        block.type === "tool_result" && commands.firstResult.get(block.toolUseId) !== block,
    );
    const lines: Line[] = [
      { message: { ...fields, content: blocks.filter((block) => block.type !== "tool_result") } },
    ];
    if (results.length > 0) lines.push({ message: user(results, message.timestamp) });
    return lines;
  }
  const { context, timestamp } = message;
  if (blocks.length === 0) return [{ message: user([], timestamp, context) }];
  const lines: Line[] = [];
  let run: Block[] = [];
  const close = () => {
    if (run.length > 0) lines.push({ message: user(run, timestamp, context) });
    run = [];
  };
  for (const block of blocks) {
    if (block.type === "tool_use" && isCommand(block)) {
      close();
      lines.push({ message: user([block], timestamp, context), markup: "command" });
      const result = commands.firstResult.get(block.id);
      if (result !== undefined && !placed.has(result)) {
        placed.add(result);
        lines.push({ message: user([result], timestamp, context), markup: "output" });
      }
    } else if (
      block.type === "tool_result" &&
      commands.firstResult.get(block.toolUseId) === block
    ) {
      // It stands right after its command.
    } else if (block.type === "tool_use") {
      const { name, input } = toCanonical(block.tool);
      run.push({ type: "text", text: `[tool call ${name} ${stringifyJson(input)}]` });
    } else run.push(block);
  }
  close();
  return lines;
}

/** A line of block content as it reads back: results fit the tool_result rule. */
function readBlocks(message: Message): Message {
  const content = message.content.map((block): Block => {
    if (block.type !== "tool_result" || isAnthropicToolResultContent(block.content)) return block;
    return { ...block, content: stringifyJson(block.content) };
  });
  const read: Message = { ...message, content };
  if (read.role === "assistant" && (read.model === "" || read.model === "<synthetic>"))
    delete read.model;
  if (read.role === "user") {
    delete read.model;
    delete read.stopReason;
    delete read.usage;
  }
  return read;
}

/**
 * claude_code.orphan-result: a result on a user line whose call is no
 * earlier assistant tool call reads back as the text `[tool result]
 * <content>` (`[tool result (error)]`), content as the tool_result rule
 * left it, a string as is, else its JSON text.
 */
function resultsWithoutCallAsText(message: Message, calls: ReadonlySet<string>): Message {
  return {
    ...message,
    content: message.content.map((block): Block => {
      if (block.type !== "tool_result" || calls.has(block.toolUseId)) return block;
      const text = typeof block.content === "string" ? block.content : stringifyJson(block.content);
      return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${text}` };
    }),
  };
}

/** The conversation as it reads back. */
export function projectConversation(messages: readonly Message[]): Message[] {
  const commands = commandsOf(messages);
  const placed = new Set<ToolResultBlock>();
  const lines: Line[] = [];
  for (const message of messages) {
    const cut =
      message.role === "user"
        ? cutAtCompaction(stripModelFields(message))
        : cutAtCompaction(message);
    for (const piece of cut) lines.push(...linesOf(piece, commands, placed));
  }
  // Every Command is renamed command-<n>, n its ordinal; its output line
  // follows its command's new id (a repeated id: the last command's).
  const renamedTo = new Map<string, string>();
  let ordinal = 0;
  for (const line of lines)
    if (line.markup === "command")
      renamedTo.set(
        (line.message.content[0] as Block & { type: "tool_use" }).id,
        `command-${++ordinal}`,
      );
  // A result answers its call only after an assistant call of its id (else it reads back as text).
  const answered = new Set<string>();
  const calledBefore = new Set<string>();
  for (const line of lines)
    for (const block of line.message.content) {
      if (block.type === "tool_use" && line.message.role === "assistant")
        calledBefore.add(block.id);
      if (block.type !== "tool_result") continue;
      if (line.markup === "output") answered.add(renamedTo.get(block.toolUseId) ?? block.toolUseId);
      else if (calledBefore.has(block.toolUseId)) answered.add(block.toolUseId);
    }

  // Reading back: markup becomes calls and results again; every call nothing answers gets an error result.
  const out: Message[] = [];
  let readOrdinal = 0;
  let pending: string | undefined;
  let orphans: Block[] = [];
  const flushOrphans = (into?: Message) => {
    if (orphans.length === 0) return into;
    const synthesized = orphans;
    orphans = [];
    if (into !== undefined) return { ...into, content: [...synthesized, ...into.content] };
    out.push(user(synthesized, lastAssistantTime));
    return undefined;
  };
  let lastAssistantTime = "";
  /** The assistant tool calls so far (claude_code.orphan-result). */
  const calls = new Set<string>();
  for (const line of lines) {
    const { message } = line;
    let read: Message;
    if (line.markup === "command") {
      const block = message.content[0] as Block & { type: "tool_use" };
      const input = block.tool.input as { command: string; args?: string };
      readOrdinal += 1;
      pending = `command-${readOrdinal}`;
      read = user(
        [
          {
            type: "tool_use",
            id: pending,
            tool: {
              name: "Command",
              input: { command: input.command, ...(input.args ? { args: input.args } : {}) },
            },
          },
        ],
        message.timestamp,
        message.context,
      );
    } else if (line.markup === "output") {
      const block = message.content[0] as ToolResultBlock;
      const text = jsonText(block.content);
      if (pending !== undefined) {
        read = user(
          [{ type: "tool_result", toolUseId: pending, content: text, isError: block.isError }],
          message.timestamp,
          message.context,
        );
        pending = undefined;
      } else {
        const tag = block.isError ? "local-command-stderr" : "local-command-stdout";
        read = readBlocks(
          user(
            [{ type: "text", text: `<${tag}>${text}</${tag}>` }],
            message.timestamp,
            message.context,
          ),
        );
      }
    } else {
      const plain = message.role === "user" && message.context === undefined && !isMarker(message);
      read = readBlocks(plain ? (flushOrphans(message) as Message) : message);
      if (read.role === "user") read = resultsWithoutCallAsText(read, calls);
      else for (const block of read.content) if (block.type === "tool_use") calls.add(block.id);
    }
    if (
      read.role !== "user" ||
      line.markup !== undefined ||
      message.context !== undefined ||
      isMarker(read)
    )
      flushOrphans();
    out.push(read);
    if (read.role === "assistant") {
      lastAssistantTime = read.timestamp;
      for (const block of read.content)
        if (block.type === "tool_use" && !answered.has(block.id)) {
          answered.add(block.id);
          orphans.push({
            type: "tool_result",
            toolUseId: block.id,
            content: missingResultText,
            isError: true,
          });
        }
    }
  }
  flushOrphans();
  return out;
}

function stripModelFields(message: Message): Message {
  const { model: _m, stopReason: _s, usage: _u, ...rest } = message;
  return rest;
}
