// Common → txcript's Cursor CLI chat document, for `convert --to cursor_cli`
// and the laws. Cursor never reads this document and txcript never writes a
// store.db (the harness is read-only: the program cannot be had here to
// check a written store). Messages are written in the shape the store's
// JSON blobs have, with ids as the store would give them (SHA-256 of the
// bytes). What the shape cannot hold is a named loss (cursor-cli-losses.ts).
import { createHash } from "node:crypto";
import {
  type Block,
  type ConversionOptions,
  type JsonObject,
  LossTally,
  type Message,
  stringifyJson,
  type Transcript,
  TxcriptError,
  toCanonical,
} from "@txcript/core";
import { cursorCliLoss } from "./cursor-cli-losses.js";
import { type CursorCliChat, type CursorCliMessage, harness } from "./cursor-cli-schema.js";
import { encodeBytesField } from "./cursor-cli-wire.js";

function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A cwd as the file: URI Cursor records it by (each path segment percent-encoded). */
export function workspaceUri(cwd: string): string {
  // A lone surrogate has no UTF-8 form, so no file URI carries it (encodeURIComponent throws).
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cwd))
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "the working directory holds a lone surrogate, which a file URI cannot carry",
      { harness, location: { path: "$.meta.cwd" } },
    );
  return `file://${cwd.split("/").map(encodeURIComponent).join("/")}`;
}

interface Run {
  role: "system" | "user" | "assistant" | "tool";
  parts: JsonObject[];
}

function writeMessage(
  message: Message,
  names: ReadonlyMap<string, string>,
  tally: LossTally,
  where: string,
): Run[] {
  if (message.context !== undefined) {
    const texts = message.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    if (
      message.context.kind !== "system" ||
      message.context.source !== undefined ||
      message.role !== "user" ||
      texts.length !== 1 ||
      message.content.length !== 1
    )
      tally.add(
        cursorCliLoss("cursor_cli.context"),
        "a context message was written as a system message of its text",
        1,
        where,
      );
    return [{ role: "system", parts: [{ type: "text", text: texts.join("\n") }] }];
  }
  const runs: Run[] = [];
  const push = (role: Run["role"], part: JsonObject) => {
    const last = runs.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(part);
    else runs.push({ role, parts: [part] });
  };
  message.content.forEach((block: Block, index) => {
    const at = `${where}.content[${index}]`;
    switch (block.type) {
      case "text":
        push(message.role, { type: "text", text: block.text });
        break;
      case "thinking":
        if (
          block.signature !== undefined ||
          block.encrypted !== undefined ||
          block.provider !== undefined
        )
          tally.add(
            cursorCliLoss("cursor_cli.thinking-extras"),
            "a thinking block's signature, encrypted content or provider was not written",
            1,
            at,
          );
        push(message.role, { type: "reasoning", text: block.text });
        break;
      case "tool_use": {
        const { name, input } = toCanonical(block.tool);
        push(message.role, {
          type: "tool-call",
          toolCallId: block.id,
          toolName: name,
          args: input,
        });
        break;
      }
      case "tool_result": {
        const part: JsonObject = { type: "tool-result", toolCallId: block.toolUseId };
        const name = names.get(block.toolUseId);
        if (name !== undefined) part.toolName = name;
        part.result = block.content;
        if (block.isError) part.isError = true;
        push("tool", part);
        break;
      }
      case "image":
        tally.add(cursorCliLoss("cursor_cli.image"), "an image was not written", 1, at);
        break;
      case "compaction":
        tally.add(
          cursorCliLoss("cursor_cli.compaction"),
          "a compaction marker was written as text of its summary",
          1,
          at,
        );
        push(message.role, { type: "text", text: block.summary });
        break;
    }
  });
  if (runs.length === 0) return [{ role: message.role, parts: [] }];
  if (runs.length > 1 || (runs[0]?.role === "tool" && message.role === "assistant"))
    tally.add(
      cursorCliLoss("cursor_cli.split"),
      "a message with tool results was written as several messages",
      1,
      where,
    );
  return runs;
}

export function commonToCursorCli(
  transcript: Transcript,
  options?: ConversionOptions,
): CursorCliChat {
  const tally = new LossTally();
  const { meta } = transcript;
  if (transcript.subagents !== undefined && transcript.subagents.length > 0)
    tally.add(
      cursorCliLoss("cursor_cli.subagents"),
      "subagent conversations were not written",
      transcript.subagents.length,
      "$.subagents",
    );
  if (meta.gitBranch !== undefined || meta.cliVersion !== undefined || meta.lineage !== undefined)
    tally.add(
      cursorCliLoss("cursor_cli.session-meta"),
      "the git branch, CLI version or lineage was not written",
      1,
      "$.meta",
    );
  const names = new Map<string, string>();
  for (const message of transcript.messages)
    for (const block of message.content)
      if (block.type === "tool_use" && !names.has(block.id))
        names.set(block.id, toCanonical(block.tool).name);
  const messages: CursorCliMessage[] = [];
  transcript.messages.forEach((message, index) => {
    const where = `$.messages[${index}]`;
    if (message.timestamp !== meta.timestamp)
      tally.add(
        cursorCliLoss("cursor_cli.timestamps"),
        "a message's time was not written",
        1,
        `${where}.timestamp`,
      );
    if (
      message.model !== undefined ||
      message.stopReason !== undefined ||
      message.usage !== undefined
    )
      tally.add(
        cursorCliLoss("cursor_cli.message-meta"),
        "a message's model, stop reason or usage was not written",
        1,
        where,
      );
    for (const run of writeMessage(message, names, tally, where)) {
      const body: JsonObject =
        run.role === "system"
          ? { role: "system", content: (run.parts[0]?.text as string | undefined) ?? "" }
          : { role: run.role, content: run.parts };
      messages.push({ blobId: sha256(stringifyJson(body, undefined, harness)), message: body });
    }
  });
  const workspaceUris: string[] = [];
  if (meta.cwd !== undefined) {
    if (meta.cwd.startsWith("/")) workspaceUris.push(workspaceUri(meta.cwd));
    else
      tally.add(
        cursorCliLoss("cursor_cli.cwd"),
        "a cwd that is not an absolute path was not written",
        1,
        "$.meta.cwd",
      );
  }
  const root = Buffer.concat([
    ...messages.map((entry) => encodeBytesField(1, Buffer.from(entry.blobId, "hex"))),
    ...workspaceUris.map((uri) => encodeBytesField(9, Buffer.from(uri, "utf8"))),
  ]);
  const rootBlobId = sha256(root);
  const chatMeta: JsonObject = { agentId: meta.id, latestRootBlobId: rootBlobId };
  if (meta.title !== undefined) chatMeta.name = meta.title;
  chatMeta.createdAt = Date.parse(meta.timestamp);
  if (meta.model !== undefined) chatMeta.lastUsedModel = meta.model;
  tally.flush(options);
  return {
    cursorCliChat: 1,
    agentId: meta.id,
    meta: chatMeta,
    redactedMetaKeys: [],
    rootBlobId,
    workspaceUris,
    turnBlobIds: [],
    otherRootFields: [],
    messages,
    missingBlobIds: [],
    digestMismatches: [],
  };
}
