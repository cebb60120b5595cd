// What a model request carries, read from the request body a program sent
// to the recording stub (model-stub.ts), for each provider API, and the
// pairing rules each API documents for tool calls and their results. Written
// from the providers' API references, not from txcript's writers:
//
// - Anthropic Messages: `tool_use` blocks (id) sit in assistant messages;
//   every one must be answered by a `tool_result` block (tool_use_id) in the
//   user message right after it, and a `tool_result` must answer a
//   `tool_use` of the assistant message right before it
//   (docs.anthropic.com, "Tool use": "tool_result blocks must immediately
//   follow the corresponding tool_use blocks").
// - OpenAI Responses: input items `function_call` / `custom_tool_call` /
//   `local_shell_call` (call_id) and `*_output` items (call_id); every call
//   needs an output ("No tool output found for function call …") and an
//   output needs an earlier call with its call_id.
// - OpenAI chat completions: an assistant message with `tool_calls` (id)
//   must be followed by `tool` messages answering each id ("An assistant
//   message with 'tool_calls' must be followed by tool messages responding
//   to each 'tool_call_id'"), and a `tool` message must answer a call of
//   the assistant message before that run of tool messages ("messages with
//   role 'tool' must be a response to a preceding message with 'tool_calls'").
// - Gemini generateContent: `functionCall` parts belong to a `model` turn
//   and the next turn must be a `user` turn with as many `functionResponse`
//   parts ("the number of function response parts is equal to the number of
//   function call parts of the function call turn"); ids, when given, match.
//   Gemini CLI (0.61.0) masks bulky older tool outputs before it sends them
//   (its ToolOutputMaskingService, on by default, its own sessions too): the
//   response becomes {output: "<tool_output_masked>\n<preview>\n\nOutput too
//   large. Full output available at: <file>\n</tool_output_masked>"}, the
//   preview the first and last 250 characters of the response's
//   JSON.stringify(response, null, 2) (a shell call's: the head and tail lines
//   of its output). Such a result's text is read with the preview's head
//   decoded from its JSON escapes (geminiMaskedText).
import type { ProviderApi } from "./model-stub.js";

export interface SentCall {
  id: string;
  name: string;
}

export interface SentResult {
  id: string;
  text: string;
}

/** What one request sent: texts by role, calls and results, and the pairing problems. */
export interface SentHistory {
  /** Texts of user turns (and system/developer texts, which a harness may use for injected context). */
  userTexts: string[];
  /** Every text in the request, user or not (for the left-out note, which may ride anywhere). */
  allTexts: string[];
  calls: SentCall[];
  results: SentResult[];
  /** "call X without a result", "orphan result X", …: empty when the pairing is valid. */
  problems: string[];
  /** The number of conversation entries (messages, input items or contents). */
  entries: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string => (typeof value === "string" ? value : "");

/** The text inside a content value: a string, or the text of an array of parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => {
        if (typeof part === "string") return part;
        if (!isObject(part)) return "";
        if (typeof part.text === "string") return part.text;
        if (part.content !== undefined) return textOf(part.content);
        return "";
      })
      .filter((text) => text !== "")
      .join("\n");
  if (isObject(content)) {
    if (typeof content.text === "string") return content.text;
    // A structured result ({output}, {error}, …): its strings, not their JSON escapes.
    return Object.values(content)
      .map((value) => textOf(value))
      .filter((text) => text !== "")
      .join("\n");
  }
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

function empty(): SentHistory {
  return { userTexts: [], allTexts: [], calls: [], results: [], problems: [], entries: 0 };
}

function anthropic(body: Json): SentHistory {
  const out = empty();
  const system = body.system;
  if (system !== undefined) out.allTexts.push(textOf(system));
  const messages = asArray(body.messages).filter(isObject);
  out.entries = messages.length;
  let open: string[] = [];
  messages.forEach((message, index) => {
    const role = asString(message.role);
    const blocks =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : asArray(message.content).filter(isObject);
    const answered: string[] = [];
    const calls: string[] = [];
    for (const block of blocks) {
      const type = asString(block.type);
      if (type === "text") {
        out.allTexts.push(asString(block.text));
        if (role === "user") out.userTexts.push(asString(block.text));
      } else if (type === "tool_use" || type === "server_tool_use") {
        const id = asString(block.id);
        out.calls.push({ id, name: asString(block.name) });
        if (role !== "assistant")
          out.problems.push(`tool_use ${id} in a ${role} message (#${index})`);
        calls.push(id);
      } else if (type === "tool_result") {
        const id = asString(block.tool_use_id);
        const text = textOf(block.content);
        out.results.push({ id, text });
        out.allTexts.push(text);
        answered.push(id);
        if (!open.includes(id))
          out.problems.push(
            `orphan tool_result ${id} (#${index}): no tool_use in the message before`,
          );
      }
    }
    for (const id of open)
      if (!answered.includes(id))
        out.problems.push(`tool_use ${id} without a tool_result in the next message (#${index})`);
    open = role === "assistant" ? calls : [];
  });
  for (const id of open) out.problems.push(`tool_use ${id} without a tool_result (last message)`);
  return out;
}

const responseCallTypes = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
const responseOutputTypes = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "local_shell_call_output",
]);

function responses(body: Json): SentHistory {
  const out = empty();
  if (typeof body.instructions === "string") out.allTexts.push(body.instructions);
  const items =
    typeof body.input === "string"
      ? [{ type: "message", role: "user", content: body.input }]
      : asArray(body.input).filter(isObject);
  out.entries = items.length;
  const called = new Set<string>();
  const answered = new Set<string>();
  items.forEach((item, index) => {
    const type = asString(item.type) || (item.role !== undefined ? "message" : "");
    if (type === "message") {
      const text = textOf(item.content);
      out.allTexts.push(text);
      if (item.role === "user" || item.role === "developer" || item.role === "system")
        out.userTexts.push(text);
    } else if (responseCallTypes.has(type)) {
      const id = asString(item.call_id);
      out.calls.push({ id, name: asString(item.name) || type });
      called.add(id);
    } else if (responseOutputTypes.has(type)) {
      const id = asString(item.call_id);
      const text = textOf(item.output);
      out.results.push({ id, text });
      out.allTexts.push(text);
      if (!called.has(id))
        out.problems.push(`orphan ${type} ${id} (item ${index}): no earlier call`);
      answered.add(id);
    }
  });
  for (const call of out.calls)
    if (!answered.has(call.id))
      out.problems.push(`call ${call.id} (${call.name}) without an output`);
  return out;
}

function chat(body: Json): SentHistory {
  const out = empty();
  const messages = asArray(body.messages).filter(isObject);
  out.entries = messages.length;
  let open: string[] | undefined;
  let answered: string[] = [];
  const closeRun = (where: string) => {
    if (open !== undefined)
      for (const id of open)
        if (!answered.includes(id))
          out.problems.push(`tool_call ${id} without a tool message ${where}`);
    open = undefined;
    answered = [];
  };
  messages.forEach((message, index) => {
    const role = asString(message.role);
    if (role === "tool") {
      const id = asString(message.tool_call_id);
      const text = textOf(message.content);
      out.results.push({ id, text });
      out.allTexts.push(text);
      if (open === undefined || !open.includes(id))
        out.problems.push(
          `orphan tool message ${id} (#${index}): no assistant tool_calls before it answers it`,
        );
      answered.push(id);
      return;
    }
    closeRun(`before message #${index}`);
    const text = textOf(message.content);
    out.allTexts.push(text);
    if (role === "user" || role === "system" || role === "developer") out.userTexts.push(text);
    if (role === "assistant") {
      const calls = asArray(message.tool_calls).filter(isObject);
      for (const call of calls) {
        const fn = isObject(call.function) ? call.function : {};
        out.calls.push({ id: asString(call.id), name: asString(fn.name) });
      }
      if (calls.length > 0) open = calls.map((call) => asString(call.id));
    } else if (asArray(message.tool_calls).length > 0)
      out.problems.push(`tool_calls in a ${role} message (#${index})`);
  });
  closeRun("(last message)");
  return out;
}

const maskedOpen = "<tool_output_masked>\n";
const maskedFile = "\n\nOutput too large. Full output available at: ";
const truncated = "\n... [TRUNCATED] ...\n";

const escapes: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };

/**
 * The string values at the start of a JSON text cut anywhere (its keys,
 * the strings a colon follows, left out), decoded; a string the cut ends
 * inside is kept up to the cut.
 */
export function jsonHeadStrings(text: string): string[] {
  const values: string[] = [];
  let index = 0;
  while (index < text.length) {
    if (text[index] !== '"') {
      index += 1;
      continue;
    }
    let value = "";
    index += 1;
    for (; index < text.length && text[index] !== '"'; index += 1) {
      if (text[index] !== "\\") {
        value += text[index];
        continue;
      }
      const escaped = text[index + 1];
      if (escaped === undefined) break;
      if (escaped === "u") {
        const code = text.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(code)) break;
        value += String.fromCharCode(Number.parseInt(code, 16));
        index += 5;
      } else {
        value += escapes[escaped] ?? escaped;
        index += 1;
      }
    }
    index += 1;
    if (!/^\s*:/.test(text.slice(index))) values.push(value);
  }
  return values;
}

/**
 * A masked Gemini CLI tool output as text: its preview's head decoded from
 * its JSON escapes, then the masked text as sent. Undefined when `output`
 * is not a masked one.
 */
export function geminiMaskedText(output: unknown): string | undefined {
  if (typeof output !== "string" || !output.startsWith(maskedOpen)) return undefined;
  const end = output.lastIndexOf(maskedFile);
  if (end < 0) return undefined;
  const preview = output.slice(maskedOpen.length, end);
  const cut = preview.indexOf(truncated);
  const headText = cut < 0 ? preview : preview.slice(0, cut);
  // A shell call's preview is its output's lines, not JSON: it is read as it is.
  const decoded = headText.trimStart().startsWith("{") ? jsonHeadStrings(headText) : [];
  return [...decoded, output].join("\n");
}

function gemini(body: Json): SentHistory {
  const out = empty();
  if (body.systemInstruction !== undefined)
    out.allTexts.push(textOf(asArray((body.systemInstruction as Json).parts)));
  const contents = asArray(body.contents).filter(isObject);
  out.entries = contents.length;
  let open: SentCall[] = [];
  contents.forEach((content, index) => {
    const role = asString(content.role);
    const parts = asArray(content.parts).filter(isObject);
    const calls: SentCall[] = [];
    const responses: SentResult[] = [];
    for (const part of parts) {
      if (typeof part.text === "string") {
        if (part.thought === true) continue;
        out.allTexts.push(part.text);
        if (role === "user") out.userTexts.push(part.text);
      } else if (isObject(part.functionCall)) {
        const call = { id: asString(part.functionCall.id), name: asString(part.functionCall.name) };
        calls.push(call);
        out.calls.push(call);
        if (role !== "model")
          out.problems.push(`functionCall ${call.id || call.name} in a ${role} turn (#${index})`);
      } else if (isObject(part.functionResponse)) {
        const response = part.functionResponse;
        const masked = isObject(response.response)
          ? geminiMaskedText(response.response.output)
          : undefined;
        const result = {
          id: asString(response.id),
          text: masked ?? textOf(response.response),
        };
        responses.push(result);
        out.results.push(result);
        out.allTexts.push(result.text);
      }
    }
    if (open.length > 0) {
      if (role !== "user" || responses.length !== open.length)
        out.problems.push(
          `a model turn with ${open.length} functionCall part(s) is followed by ${role} turn #${index} with ${responses.length} functionResponse part(s)`,
        );
      for (const call of open)
        if (call.id !== "" && !responses.some((response) => response.id === call.id))
          out.problems.push(`functionCall ${call.id} (${call.name}) without its functionResponse`);
    } else if (responses.length > 0)
      out.problems.push(
        `functionResponse part(s) in turn #${index} with no functionCall turn before`,
      );
    open = role === "model" ? calls : [];
  });
  for (const call of open)
    out.problems.push(`functionCall ${call.id || call.name} without a response (last turn)`);
  return out;
}

/** What a request body sent, read by the rules of its API. */
export function sentHistory(api: ProviderApi, body: Json): SentHistory {
  if (api === "anthropic") return anthropic(body);
  if (api === "responses") return responses(body);
  if (api === "chat") return chat(body);
  if (api === "gemini") return gemini(body);
  return empty();
}
