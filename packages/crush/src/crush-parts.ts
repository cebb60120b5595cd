// The `parts` column of a Crush message, read by the rules Crush's Go code
// applies when it loads a message (internal/message/message.go
// unmarshalParts, encoding/json): a JSON array (or null) of {type, data}
// wrappers, a known type tag, data an object (or null) whose known fields
// have their Go types. Keys match Go's way (case-insensitively, the last
// one wins); unknown keys are ignored, as Go ignores them. A part Crush
// would refuse is a TxcriptError here, so a written session is checked by
// the same rules (docs/formats/crush.md, "Parts").
import { isJsonObject, type Json, type JsonObject, parseJson, TxcriptError } from "@txcript/core";
import { harness } from "./crush-schema.js";

type FieldType = "string" | "bool" | "int" | "bytes" | "object";

/** Each part type's Go struct fields (JSON names) and their types, at the commit docs/formats/crush.md names. */
export const partFields: Readonly<Record<string, Readonly<Record<string, FieldType>>>> = {
  reasoning: {
    thinking: "string",
    signature: "string",
    thought_signature: "string",
    tool_id: "string",
    responses_data: "object",
    started_at: "int",
    finished_at: "int",
  },
  text: { text: "string" },
  image_url: { url: "string", detail: "string" },
  binary: { Path: "string", MIMEType: "string", Data: "bytes" },
  tool_call: {
    id: "string",
    name: "string",
    input: "string",
    provider_executed: "bool",
    finished: "bool",
  },
  tool_result: {
    tool_call_id: "string",
    name: "string",
    content: "string",
    data: "string",
    mime_type: "string",
    metadata: "string",
    is_error: "bool",
  },
  finish: { reason: "string", time: "int", message: "string", details: "string" },
  shell_command: { command: "string", output: "string", exit_code: "int" },
};

/** One part as Go decodes it: known fields only, each of its Go type (zero values filled in). */
export interface CrushPart {
  type: string;
  data: Record<string, string | boolean | number | JsonObject | null>;
  /** Keys of the data object Go ignores (a Crush era's or another program's extra fields). */
  unknownKeys: string[];
}

const int64Max = 2n ** 63n - 1n;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether Go's encoding/json decodes `text` into a []byte (standard base64, padded; CR and LF skipped). */
export function isGoBase64(text: string): boolean {
  return base64Pattern.test(text.replace(/[\r\n]/g, ""));
}

function problem(message: string, where: string): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", `Crush would not load these parts: ${message}`, {
    harness,
    location: { path: where },
    hint: "the rules are Crush's unmarshalParts (docs/formats/crush.md, Parts)",
  });
}

/** The value Go assigns a field from: the last key that matches it case-insensitively. */
function goField(object: JsonObject, name: string): Json | undefined {
  let found: Json | undefined;
  const folded = name.toLowerCase();
  for (const key of Object.keys(object))
    if (key.toLowerCase() === folded) found = object[key] as Json;
  return found;
}

function decodeField(type: FieldType, value: Json, where: string): CrushPart["data"][string] {
  switch (type) {
    case "string":
      if (typeof value !== "string") throw problem(`${where} is not a string`, where);
      return value;
    case "bool":
      if (typeof value !== "boolean") throw problem(`${where} is not a boolean`, where);
      return value;
    case "int": {
      if (typeof value !== "number" || !Number.isInteger(value))
        throw problem(`${where} is not an integer`, where);
      if (BigInt(value) > int64Max || BigInt(value) < -int64Max - 1n)
        throw problem(`${where} overflows a Go int64`, where);
      return value;
    }
    case "bytes":
      if (typeof value !== "string" || !isGoBase64(value))
        throw problem(`${where} is not standard base64`, where);
      return value;
    case "object":
      if (!isJsonObject(value)) throw problem(`${where} is not an object`, where);
      return value;
  }
}

function zero(type: FieldType): CrushPart["data"][string] {
  return type === "string" || type === "bytes"
    ? ""
    : type === "bool"
      ? false
      : type === "int"
        ? 0
        : null;
}

/** Decodes one message's parts the way Crush does, or throws what Crush would refuse. */
export function decodeParts(text: string, where = "$"): CrushPart[] {
  let value: Json;
  try {
    value = parseJson(text, { harness });
  } catch (cause) {
    throw new TxcriptError("INVALID_DOCUMENT", `Crush would not load these parts: not JSON`, {
      harness,
      location: { path: where },
      cause,
    });
  }
  if (value === null) return [];
  if (!Array.isArray(value)) throw problem("the parts are not a JSON array", where);
  return value.map((wrapper, index) => {
    const at = `${where}[${index}]`;
    if (wrapper !== null && !isJsonObject(wrapper)) throw problem(`${at} is not an object`, at);
    const tag = wrapper === null ? null : goField(wrapper, "type");
    if (tag !== null && tag !== undefined && typeof tag !== "string")
      throw problem(`${at}.type is not a string`, `${at}.type`);
    const type = typeof tag === "string" ? tag : "";
    const fields = Object.hasOwn(partFields, type) ? partFields[type] : undefined;
    if (fields === undefined)
      throw problem(`unknown part type ${JSON.stringify(type)}`, `${at}.type`);
    const data = wrapper === null ? undefined : goField(wrapper, "data");
    if (data === undefined) throw problem(`${at} has no data`, `${at}.data`);
    if (data !== null && !isJsonObject(data))
      throw problem(`${at}.data is not an object`, `${at}.data`);
    const decoded: CrushPart["data"] = {};
    for (const [name, fieldType] of Object.entries(fields)) {
      const raw = data === null ? undefined : goField(data, name);
      decoded[name] =
        raw === undefined || raw === null
          ? zero(fieldType)
          : decodeField(fieldType, raw, `${at}.data.${name}`);
    }
    const known = Object.keys(fields).map((name) => name.toLowerCase());
    const unknownKeys =
      data === null ? [] : Object.keys(data).filter((key) => !known.includes(key.toLowerCase()));
    return { type, data: decoded, unknownKeys };
  });
}
