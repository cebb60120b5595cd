// The first half of writing a rollout: a Common transcript as a stream of
// units (text runs, items, context messages, turn settings, compactions,
// usage), with every loss warned as it happens. common-to-codex.ts renders
// them as lines; consecutive text of one side becomes one message item, so
// messages Codex would merge anyway are written the same either way.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  type Usage,
  warn,
} from "@txcript/core";
import {
  contentItems,
  isCodexOutputItems,
  isRunBlock,
  type RunBlock,
  sameTool,
} from "./codex-content.js";
import { injectedSource, type Side } from "./codex-items.js";
import { codexLoss } from "./codex-losses.js";
import { harness } from "./codex-schema.js";
import {
  type CodexCall,
  codexToolToCommon,
  commonToolToCodex,
  namespacedName,
} from "./codex-tools.js";

/** Writing options the units read (see CodexWriteOptions). */
export interface CodexUnitOptions extends ConversionOptions {
  reasoning?: "openai-encrypted" | "text-only";
}

export type Unit =
  | { kind: "run"; side: Side; block: RunBlock; timestamp: string; injected: boolean }
  | { kind: "item"; payload: JsonObject; timestamp: string; echo?: JsonObject }
  | { kind: "context"; role: "developer" | "user"; blocks: RunBlock[]; timestamp: string }
  | { kind: "turn"; model: string; timestamp: string }
  | { kind: "compaction"; payload: JsonObject; timestamp: string }
  | { kind: "usage"; usage: Usage; timestamp: string };

/** What the reader has open: a message of one side, begun by Common message `index`. */
interface Open {
  side: Side;
  index: number;
  timestamp: string;
}

/** codex.orphan-result: a result with no earlier call, as the user text it becomes. */
function orphanResultText(block: Block & { type: "tool_result" }): RunBlock {
  const output =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, harness);
  return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${output}` };
}

export class UnitWriter {
  open: Open | undefined;
  /** The run being written: its side, and whether the reader takes it as injected context. */
  run: { side: Side; injected: boolean } | undefined;
  inForce: string | undefined;
  sawAssistant = false;
  /** The time of the assistant message the last assistant-side item went to (its usage's time). */
  assistantTimestamp: string | undefined;
  readonly calls = new Map<string, CodexCall["kind"]>();

  constructor(
    /** The session's meta is all the units read of the transcript (its model). */
    readonly transcript: Pick<Transcript, "meta">,
    readonly options: ConversionOptions | undefined,
  ) {}

  warn(code: keyof typeof codexLoss, message: string, path: string): void {
    warn(this.options, codexLoss[code], message, path);
  }

  /** A unit that is not part of a text run: it ends the run. */
  #other(): void {
    this.run = undefined;
  }

  /**
   * The reader sees an item of `side` from message `index`; the time its
   * line carries is the time of the message the reader puts it in.
   */
  #item(side: Side, index: number, timestamp: string, path: string): string {
    if (this.open !== undefined && this.open.side === side && this.open.index !== index)
      this.warn("mergedMessages", "a message merged with the one before it", path);
    if (this.open === undefined || this.open.side !== side) this.open = { side, index, timestamp };
    if (side === "assistant") this.assistantTimestamp = this.open.timestamp;
    return this.open.timestamp;
  }

  *runBlock(
    side: Side,
    block: RunBlock,
    message: Message,
    index: number,
    path: string,
  ): Generator<Unit> {
    if (this.run === undefined || this.run.side !== side) {
      const injected =
        side === "user" && block.type === "text" && injectedSource(block.text) !== undefined;
      if (injected)
        this.warn(
          "contextKind",
          "a prompt that opens like Codex's injected context reads back as context",
          path,
        );
      this.run = { side, injected };
      if (injected) this.open = undefined;
    }
    const timestamp = this.run.injected
      ? message.timestamp
      : this.#item(side, index, message.timestamp, path);
    yield { kind: "run", side, block, timestamp, injected: this.run.injected };
  }

  *item(
    side: Side,
    payload: JsonObject,
    message: Message,
    index: number,
    path: string,
    echo?: JsonObject,
  ) {
    this.#other();
    const timestamp = this.#item(side, index, message.timestamp, path);
    const unit: Unit = { kind: "item", payload, timestamp };
    if (echo !== undefined) unit.echo = echo;
    yield unit;
  }

  /**
   * Before an assistant-side unit: the model in force. The first one overall
   * gets the message's model or the session's; an assistant message's first
   * one gets its own model when that differs.
   */
  *model(message: Message, first: boolean, path: string): Generator<Unit> {
    const own = message.role === "assistant" ? message.model : undefined;
    let wanted: string | undefined;
    if (!this.sawAssistant) {
      this.sawAssistant = true;
      wanted = own ?? this.transcript.meta.model;
      if (wanted !== this.transcript.meta.model)
        this.warn(
          "metaModel",
          "the session model reads back as the first response's",
          "$.meta.model",
        );
    } else if (first && own !== undefined && own !== this.inForce) wanted = own;
    if (wanted !== undefined && wanted !== this.inForce) {
      this.inForce = wanted;
      this.open = undefined;
      this.#other();
      yield { kind: "turn", model: wanted, timestamp: message.timestamp };
    }
    if (first && message.role === "assistant" && own === undefined && this.inForce !== undefined)
      this.warn("messageModel", `a message without a model reads back with ${this.inForce}`, path);
  }

  *blocks(
    message: Message,
    index: number,
    path: string,
    history: boolean,
  ): Generator<Unit, { assistant: number; sides: Set<Side> }> {
    const state = { assistant: 0, sides: new Set<Side>() };
    const side = function* (this: UnitWriter, which: Side): Generator<Unit> {
      if (which === "assistant" && !history)
        yield* this.model(message, state.assistant === 0, path);
      if (which === "assistant") state.assistant += 1;
      state.sides.add(which);
    }.bind(this);
    for (const [position, block] of message.content.entries()) {
      const at = `${path}.content[${position}]`;
      if (isRunBlock(block)) {
        if (message.role === "assistant" && block.type === "image") {
          this.warn("assistantImage", "an assistant image was dropped", at);
          continue;
        }
        const which: Side = message.role === "assistant" ? "assistant" : "user";
        yield* side(which);
        yield* this.runBlock(which, block, message, index, at);
        continue;
      }
      if (block.type === "thinking") {
        const openai = block.provider === "openai";
        if (block.signature !== undefined)
          this.warn("thinkingSignature", "a thinking signature was dropped", at);
        if (!openai)
          this.warn(
            "foreignReasoning",
            "thinking from another provider became OpenAI reasoning text",
            at,
          );
        const keep =
          openai && (this.options as CodexUnitOptions | undefined)?.reasoning !== "text-only";
        if (openai && !keep && block.encrypted !== undefined)
          this.warn(
            "foreignReasoning",
            "encrypted reasoning from another session's account was dropped",
            at,
          );
        const encrypted = keep ? block.encrypted : undefined;
        // OpenAI reasoning whose encrypted content text-only writing drops is still a reasoning
        // step: kept as an empty reasoning item, so it reads back as the empty thinking it was.
        const dropped = openai && block.encrypted !== undefined && encrypted === undefined;
        if (block.text === "" && encrypted === undefined && !dropped) {
          this.warn("emptyThinking", "thinking with nothing Codex can hold was dropped", at);
          continue;
        }
        yield* side("assistant");
        yield* this.item(
          "assistant",
          {
            type: "reasoning",
            summary: block.text === "" ? [] : [{ type: "summary_text", text: block.text }],
            content: null,
            encrypted_content: encrypted ?? null,
          },
          message,
          index,
          at,
          history || block.text === "" ? undefined : { type: "agent_reasoning", text: block.text },
        );
      } else if (block.type === "tool_use") {
        const call = commonToolToCodex(block.tool);
        const back = codexToolToCommon(
          call.kind === "function" ? namespacedName(call.namespace, call.name) : call.name,
          call.input,
        );
        if (!sameTool(back, block.tool))
          this.warn("toolRetyped", `the ${call.name} call reads back as ${back.name}`, at);
        this.calls.set(block.id, call.kind);
        let payload: JsonObject;
        if (call.kind === "custom")
          payload = {
            type: "custom_tool_call",
            status: "completed",
            call_id: block.id,
            name: call.name,
            input: call.input,
          };
        else {
          payload = { type: "function_call", name: call.name };
          if (call.namespace !== undefined) payload.namespace = call.namespace;
          payload.arguments = stringifyJson(call.input, undefined, harness);
          payload.call_id = block.id;
        }
        yield* side("assistant");
        yield* this.item("assistant", payload, message, index, at);
      } else if (block.type === "tool_result") {
        if (!this.calls.has(block.toolUseId)) {
          // No earlier call to answer: user text, never an orphan function_call_output.
          this.warn("orphanResult", "a tool result without an earlier call became text", at);
          yield* side("user");
          yield* this.runBlock("user", orphanResultText(block), message, index, at);
          continue;
        }
        if (block.isError) this.warn("toolErrorFlag", "a tool error became a plain output", at);
        let output: Json = block.content;
        if (typeof output !== "string" && !isCodexOutputItems(output)) {
          this.warn("jsonToolOutput", "structured tool output became its JSON text", at);
          output = stringifyJson(output, undefined, harness);
        }
        const type =
          this.calls.get(block.toolUseId) === "custom"
            ? "custom_tool_call_output"
            : "function_call_output";
        yield* side("user");
        yield* this.item("user", { type, call_id: block.toolUseId, output }, message, index, at);
      }
    }
    return state;
  }

  *context(message: Message, index: number, path: string): Generator<Unit> {
    const context = message.context;
    if (context === undefined) return;
    const own = message.content.filter(isRunBlock);
    if (message.model !== undefined || message.usage !== undefined)
      this.warn("userMessageFields", "a context message's model or usage was dropped", path);
    if (own.length === 0) {
      this.warn("emptyMessage", "a context message with no text was dropped", path);
      return;
    }
    const first = own[0];
    const readSource = injectedSource(first?.type === "text" ? first.text : undefined);
    if (context.kind === "system" || (context.kind === "developer" && context.source !== undefined))
      this.warn("contextKind", `${context.kind} context became a developer message`, path);
    if (context.kind === "injected" && (readSource === undefined || readSource !== context.source))
      this.warn("contextKind", "injected context reads back by its text", path);
    if (context.kind === "injected" && readSource === undefined) {
      // Codex would read it as the person's prompt: write it as one.
      for (const block of own) yield* this.runBlock("user", block, message, index, path);
      return;
    }
    this.#other();
    this.open = undefined;
    const role = context.kind === "injected" ? "user" : "developer";
    yield { kind: "context", role, blocks: own, timestamp: message.timestamp };
  }

  /** replacement_history: the items a compaction's history messages become. */
  history(messages: readonly Message[], path: string): JsonObject[] {
    const inner = new UnitWriter(this.transcript, this.options);
    inner.inForce = undefined;
    const items: JsonObject[] = [];
    let run: { side: Side; blocks: RunBlock[] } | undefined;
    const flush = () => {
      if (run === undefined) return;
      const role = run.side;
      items.push({ type: "message", role, content: contentItems(run.blocks, role) });
      run = undefined;
    };
    messages.forEach((message, index) => {
      const at = `${path}.history[${index}]`;
      const units =
        message.context !== undefined
          ? inner.context(message, -1 - index, at)
          : inner.blocks(message, -1 - index, at, true);
      for (let next = units.next(); !next.done; next = units.next()) {
        const unit = next.value;
        if (unit.kind === "run") {
          if (run !== undefined && run.side === unit.side) run.blocks.push(unit.block);
          else {
            flush();
            run = { side: unit.side, blocks: [unit.block] };
          }
          continue;
        }
        flush();
        if (unit.kind === "item") items.push(unit.payload);
        else if (unit.kind === "context")
          items.push({
            type: "message",
            role: unit.role,
            content: contentItems(unit.blocks, "user"),
          });
      }
    });
    flush();
    return items;
  }
}
