// What toCommon(fromCommon(c)) equals for the Crush codec, written from
// docs/formats/crush.md ("Writing" and "Reading"), not from the writer: the
// normalization the law suite checks the codec against. Each step names the
// loss code the writer reports for it.
import {
  type Block,
  type Json,
  type Message,
  parseJson,
  type Subagent,
  stringifyJson,
  type Transcript,
} from "@txcript/core";
import { crushMessageId } from "./common-to-crush.js";
import { isGoBase64 } from "./crush-parts.js";
import { canonicalToCrushTool, crushToolToCanonical } from "./crush-tools.js";

const secondsOf = (timestamp: string) => Math.floor(Date.parse(timestamp) / 1000);
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A JSON value as it reads back from its JSON text (the only change: -0 is 0). */
function throughText(value: Json): Json {
  return parseJson(stringifyJson(value));
}

function block(input: Block): Block | undefined {
  switch (input.type) {
    case "text":
      return input;
    case "thinking": // crush.thinking-fields; an empty signature reads as none
      return {
        type: "thinking",
        text: input.text,
        ...(input.signature === undefined || input.signature === ""
          ? {}
          : { signature: input.signature }),
      };
    case "image": // crush.image-data
      return isGoBase64(input.source.data) ? input : undefined;
    case "tool_use": {
      const call = canonicalToCrushTool(input.tool);
      return {
        type: "tool_use",
        id: input.id,
        tool: crushToolToCanonical(call.name, throughText(call.input)),
      };
    }
    case "tool_result": // crush.result-json
      return {
        type: "tool_result",
        toolUseId: input.toolUseId,
        content:
          typeof input.content === "string" ? input.content : stringifyJson(input.content as Json),
        isError: input.isError,
      };
    case "compaction": // crush.compaction-fields
      return { type: "compaction", summary: input.summary };
  }
}

type Kind = "results" | "compaction" | "other";

/** A message's blocks cut into runs (docs: "one row per run"). */
function runs(message: Message): { kind: Kind; blocks: Block[] }[] {
  const out: { kind: Kind; blocks: Block[] }[] = [];
  for (const item of message.content) {
    const kind: Kind =
      item.type === "tool_result" ? "results" : item.type === "compaction" ? "compaction" : "other";
    const last = out.at(-1);
    if (last !== undefined && last.kind === kind && kind !== "compaction") last.blocks.push(item);
    else out.push({ kind, blocks: [item] });
  }
  return out.length === 0 ? [{ kind: "other", blocks: [] }] : out;
}

const stopReasonRead: Record<string, string> = { canceled: "aborted", content_filter: "refusal" };

interface Projected {
  messages: Message[];
  /** Tool call id → the id of the row that holds its first call. */
  calls: Map<string, string>;
}

function messages(sessionId: string, input: readonly Message[]): Projected {
  const out: Message[] = [];
  const calls = new Map<string, string>();
  let previous = Number.NEGATIVE_INFINITY;
  let rows = 0;
  for (const message of input) {
    if (message.context !== undefined) continue; // crush.context
    const second = Math.max(previous, secondsOf(message.timestamp)); // crush.timestamp-order
    previous = second;
    const timestamp = isoOf(second);
    const model =
      message.model === undefined || message.model === "" ? {} : { model: message.model };
    const cut = runs(message);
    const lastOther =
      message.role === "assistant" ? cut.map((run) => run.kind).lastIndexOf("other") : -1;
    cut.forEach((run, index) => {
      const rowId = crushMessageId(sessionId, rows);
      rows += 1;
      const content = run.blocks.flatMap((item) => {
        const projected = block(item);
        if (projected?.type === "tool_use" && !calls.has(projected.id))
          calls.set(projected.id, rowId);
        return projected === undefined ? [] : [projected];
      });
      if (run.kind === "compaction") {
        out.push({ role: "user", content, timestamp, ...model });
        return;
      }
      const projected: Message = {
        role: run.kind === "results" ? "user" : message.role,
        content,
        timestamp,
        ...model,
      };
      // usage: crush.usage; stopReason only on the last non-result run of an assistant message
      if (index === lastOther && message.stopReason !== undefined)
        projected.stopReason = stopReasonRead[message.stopReason] ?? message.stopReason;
      out.push(projected);
    });
  }
  return { messages: out, calls };
}

/** The id a subagent's session is written under, and the call it reads back linked to. */
function subagents(
  parentId: string,
  input: readonly Subagent[],
  calls: ReadonlyMap<string, string>,
  taken: Set<string>,
  depth: number,
): Subagent[] {
  if (depth > 8) return []; // crush.subagent-fields
  return input.map((subagent) => {
    const row = subagent.toolUseId === undefined ? undefined : calls.get(subagent.toolUseId);
    const wanted = row === undefined ? subagent.id : `${row}$$${subagent.toolUseId}`;
    let id = wanted;
    for (let n = 2; taken.has(id) || id === `title-${parentId}`; n += 1) id = `${wanted}#${n}`;
    taken.add(id);
    // Read back: `<row>$$<call>` or the id itself names a call of the parent.
    const halves = id.split("$$");
    const toolUseId =
      halves.length === 2 && calls.has(halves[1] as string)
        ? halves[1]
        : calls.has(id)
          ? id
          : undefined;
    const inner = messages(id, subagent.messages);
    const out: Subagent = {
      id,
      ...(toolUseId === undefined ? {} : { toolUseId }),
      ...(subagent.title === undefined || subagent.title === "" ? {} : { title: subagent.title }),
      messages: inner.messages,
    };
    const nested = subagents(id, subagent.subagents ?? [], inner.calls, taken, depth + 1);
    if (nested.length > 0) out.subagents = nested;
    return out;
  });
}

export function crushProject(transcript: Transcript): Transcript {
  const meta = transcript.meta;
  const main = messages(meta.id, transcript.messages);
  const result: Transcript = {
    meta: {
      id: meta.id,
      timestamp: isoOf(secondsOf(meta.timestamp)),
      ...(meta.cwd === undefined ? {} : { cwd: meta.cwd }),
      ...(meta.title === undefined || meta.title === "" ? {} : { title: meta.title }),
    },
    messages: main.messages,
  };
  const children = subagents(
    meta.id,
    transcript.subagents ?? [],
    main.calls,
    new Set([meta.id]),
    1,
  );
  if (children.length > 0) result.subagents = children;
  return result;
}
