// The stream-json codec: `--stream-json` captures of Amp and Claude Code
// (`--output-format stream-json`) ⇄ Common, and `streamJsonProject`, the
// codec's documented normalization as code (what a Common transcript looks
// like after a trip through a capture of one dialect). No I/O here.
import { ampToolFromCommon, ampToolToCommon } from "@txcript/amp";
import {
  type Block,
  type Codec,
  type Message,
  stringifyJson,
  type Transcript,
  warn,
} from "@txcript/core";
import {
  ampStopReasons,
  claudeStopReasons,
  commonToStreamJson,
  isClaudeResultBlocks,
  type StreamJsonWriteOptions,
} from "./common-to-stream-json.js";
import { ampResultContent } from "./stream-json-blocks.js";
import {
  parseCapture,
  type StreamJsonCapture,
  type StreamJsonDialect,
  type StreamJsonLine,
  serializeCapture,
} from "./stream-json-lines.js";
import { streamJsonLossByCode, streamJsonLosses } from "./stream-json-losses.js";
import {
  finalTranscript,
  StreamJsonAccumulator,
  type StreamJsonReadOptions,
} from "./stream-json-to-common.js";

const firstLine = /^\s*\{\s*"type"\s*:\s*"(?:system|user|assistant|result|stream_event)"/;

export const streamJsonCodec: Codec<
  StreamJsonCapture,
  StreamJsonReadOptions,
  StreamJsonWriteOptions
> = {
  id: "stream_json",
  displayName: "stream-json capture (Amp, Claude Code)",
  losses: streamJsonLosses,
  detect(text) {
    const start = text.search(/\S/);
    if (start === -1) return false;
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? undefined : end);
    return firstLine.test(line) && line.includes('"session_id"');
  },
  parse: parseCapture,
  serialize: serializeCapture,
  toCommon(capture, options = {}) {
    const accumulator = new StreamJsonAccumulator(options);
    const { lines } = capture;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] as StreamJsonLine;
      if (line.value !== null) accumulator.push({ value: line.value, line: index + 1 });
      else if (line.truncated)
        warn(
          options,
          streamJsonLossByCode.truncatedLine,
          "a cut-off final line was skipped",
          `line ${index + 1}`,
        );
    }
    return finalTranscript(accumulator);
  },
  fromCommon: commonToStreamJson,
};

function nonEmpty(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}

/**
 * What `toCommon(fromCommon(t, {dialect}))` gives for `t`: every write-side
 * loss of the dialect as code. Both dialects: no title or git branch; ""
 * means absent; no assistant images; no thinking provider; encrypted
 * thinking only on its own; user messages carry no model, stop reason or
 * usage. Claude: stop reasons outside BetaStopReason (but aborted and error)
 * dropped; all-zero usage dropped; structured tool output other than
 * text/image block arrays becomes its JSON text. Amp: no model or CLI
 * version anywhere; no user images; stop reasons outside the manual's list
 * dropped; tools through Amp's dialect; structured tool output written as
 * JSON text, objects and arrays read back as JSON.
 */
export function streamJsonProject(
  dialect: StreamJsonDialect,
  options: Pick<StreamJsonWriteOptions, "ampEra"> = {},
): (transcript: Transcript) => Transcript {
  const claude = dialect === "claude";
  const era = options.ampEra ?? "modern";
  const block = (item: Block, role: Message["role"]): Block | undefined => {
    switch (item.type) {
      case "text":
        return item;
      case "image":
        return role === "assistant" || !claude ? undefined : item;
      case "thinking": {
        if (item.encrypted !== undefined && item.text === "" && item.signature === undefined)
          return { type: "thinking", text: "", encrypted: item.encrypted };
        const signature = nonEmpty(item.signature);
        return {
          type: "thinking",
          text: item.text,
          ...(signature === undefined ? {} : { signature }),
        };
      }
      case "tool_use": {
        if (claude) return item;
        const { name, input } = ampToolFromCommon(item.tool, { era });
        return { type: "tool_use", id: item.id, tool: ampToolToCommon(name, input) };
      }
      case "tool_result": {
        const content = claude
          ? typeof item.content === "string" || isClaudeResultBlocks(item.content)
            ? item.content
            : stringifyJson(item.content)
          : ampResultContent(
              typeof item.content === "string" ? item.content : stringifyJson(item.content),
            );
        return { ...item, content };
      }
    }
  };
  return (transcript) => {
    const messages = transcript.messages.map((message): Message => {
      const projected: Message = {
        role: message.role,
        content: message.content.flatMap((item) => block(item, message.role) ?? []),
        timestamp: message.timestamp,
      };
      if (message.role === "user") return projected;
      const model = claude ? nonEmpty(message.model) : undefined;
      if (model !== undefined) projected.model = model;
      const reason = message.stopReason;
      if (
        reason !== undefined &&
        (claude
          ? claudeStopReasons.has(reason) || reason === "aborted" || reason === "error"
          : ampStopReasons.has(reason))
      )
        projected.stopReason = reason;
      const usage = message.usage;
      if (usage !== undefined && (!claude || Object.values(usage).some((count) => count > 0)))
        projected.usage = usage;
      return projected;
    });
    const meta: Transcript["meta"] = {
      id: transcript.meta.id,
      timestamp: transcript.meta.timestamp,
    };
    const cwd = nonEmpty(transcript.meta.cwd);
    if (cwd !== undefined) meta.cwd = cwd;
    if (claude) {
      const version = nonEmpty(transcript.meta.cliVersion);
      if (version !== undefined) meta.cliVersion = version;
      const model = nonEmpty(transcript.meta.model);
      if (model !== undefined) meta.model = model;
    }
    return { meta, messages };
  };
}
