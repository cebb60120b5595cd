// The Common document: the versioned JSON form of a Transcript that
// `txcript export` writes and `convert --from common` reads. It is the
// identity codec, so core proves its own law suite on it.
import * as z from "zod";
import type { Codec, Loss, ParseOptions } from "./codec.js";
import { type CommonFormat, commonFormat, commonFormats } from "./common-format.js";
import { commonSniff } from "./common-sniff.js";
import { jsonPath, TxcriptError } from "./errors.js";
import { isJsonObject, parseJson, quote, stringifyJson } from "./json.js";
import { Message, Meta, Subagent, type Transcript } from "./model.js";

export { type CommonFormat, commonFormat, commonFormats } from "./common-format.js";

export const CommonDocument = z.strictObject({
  format: z.enum(commonFormats),
  meta: Meta,
  messages: z.array(Message),
  subagents: z.array(Subagent).optional(),
});
export type CommonDocument = { format: CommonFormat } & Transcript;

/** Validate an unknown value as a Transcript; errors carry the JSON path of the first problem. */
export function validateTranscript(
  value: unknown,
  options: { harness?: string; file?: string } = {},
): Transcript {
  const result = safeParseDeep(TranscriptShape, value, options);
  if (result.success) return value as Transcript;
  throw zodError(result.error, options);
}

const TranscriptShape = z.strictObject({
  meta: Meta,
  messages: z.array(Message),
  subagents: z.array(Subagent).optional(),
});

/** zod validates JSON values recursively: hostile depth is a size error, not a RangeError. */
function safeParseDeep<T>(
  schema: z.ZodType<T>,
  value: unknown,
  options: { harness?: string; file?: string },
) {
  try {
    return schema.safeParse(value);
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    throw new TxcriptError("TOO_LARGE", "the document is nested too deeply to validate", {
      harness: options.harness ?? "common",
      location: { ...(options.file === undefined ? {} : { file: options.file }), path: "$" },
      cause,
    });
  }
}

function zodError(error: z.ZodError, options: { harness?: string; file?: string }): TxcriptError {
  const issue = error.issues[0];
  const path = jsonPath(
    (issue?.path ?? []).map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
  );
  return new TxcriptError(
    "INVALID_DOCUMENT",
    `not a valid Common document: ${issue?.message ?? "invalid"}`,
    {
      harness: options.harness ?? "common",
      location: { ...(options.file === undefined ? {} : { file: options.file }), path },
      cause: error,
    },
  );
}

export const commonLosses: readonly Loss[] = [];

export const commonCodec: Codec<CommonDocument> = {
  id: "common",
  displayName: "Common document",
  losses: commonLosses,
  detect: commonSniff,
  parse(text, options: ParseOptions = {}) {
    const value = parseJson(text, { harness: "common", ...options });
    if (!isJsonObject(value) || !(commonFormats as readonly unknown[]).includes(value.format)) {
      throw new TxcriptError(
        "INVALID_DOCUMENT",
        `not a Common document: expected "format": ${commonFormats.map((format) => `"${format}"`).join(" or ")}`,
        {
          harness: "common",
          location: {
            ...(options.file === undefined ? {} : { file: options.file }),
            path: "$.format",
          },
          hint: `got ${quote(text, 80)}`,
        },
      );
    }
    const result = safeParseDeep(CommonDocument, value, options);
    if (!result.success) throw zodError(result.error, options);
    // The validated input itself, not zod's rebuilt copy: key order survives.
    return value as unknown as CommonDocument;
  },
  serialize(document) {
    return `${stringifyJson(document, 2, "common")}\n`;
  },
  toCommon(document) {
    return {
      meta: document.meta,
      messages: document.messages,
      ...(document.subagents === undefined ? {} : { subagents: document.subagents }),
    };
  },
  fromCommon(transcript) {
    return {
      format: commonFormat,
      meta: transcript.meta,
      messages: transcript.messages,
      ...(transcript.subagents === undefined ? {} : { subagents: transcript.subagents }),
    };
  },
};
