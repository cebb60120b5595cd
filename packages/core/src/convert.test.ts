import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Codec } from "./codec.js";
import { commonCodec } from "./common-codec.js";
import { convert, toTranscript } from "./convert.js";
import { TxcriptError } from "./errors.js";
import type { Transcript } from "./model.js";
import { lawParameters } from "./testing/index.js";

const sample: Transcript = {
  meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
  messages: [
    {
      role: "user",
      timestamp: "2026-01-01T00:00:00.000Z",
      content: [{ type: "text", text: "hi" }],
    },
  ],
};
const text = commonCodec.serialize(commonCodec.fromCommon(sample));

/** A codec whose writer reports one loss per message and can be made to fail. */
function lossyTarget(fail = false): Codec<string> {
  const loss = {
    code: "test.dropped",
    kind: "unsupported",
    description: "a message is dropped",
  } as const;
  return {
    id: "lossy",
    displayName: "lossy",
    losses: [loss],
    detect: () => false,
    parse: (input) => input,
    serialize: (native) => native,
    toCommon: () => sample,
    fromCommon(transcript, options) {
      if (fail) throw new TxcriptError("TOO_LARGE", "too deep to write");
      for (const _ of transcript.messages)
        options?.onWarning?.({
          kind: loss.kind,
          code: loss.code,
          message: "a message was dropped",
          count: 1,
        });
      return "";
    },
  };
}

describe("convert", () => {
  it("reads through Common and aggregates the losses by code", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const input = commonCodec.serialize(commonCodec.fromCommon(transcript));
        const result = convert(input, commonCodec, lossyTarget());
        expect(result.transcript).toEqual(transcript);
        expect(result.warnings).toEqual(
          transcript.messages.length === 0
            ? []
            : [
                {
                  kind: "unsupported",
                  code: "test.dropped",
                  message: "a message was dropped",
                  count: transcript.messages.length,
                },
              ],
        );
      }),
      lawParameters(200),
    );
  });
  it("names the input file on errors from either leg", () => {
    const readError = (() => {
      try {
        convert("{", commonCodec, lossyTarget(), { file: "in.json" });
      } catch (error) {
        return error as TxcriptError;
      }
    })();
    expect(readError?.code).toBe("INVALID_JSON");
    expect(readError?.location.file).toBe("in.json");
    const writeError = (() => {
      try {
        convert(text, commonCodec, lossyTarget(true), { file: "in.json" });
      } catch (error) {
        return error as TxcriptError;
      }
    })();
    expect(writeError?.code).toBe("TOO_LARGE");
    expect(writeError?.location.file).toBe("in.json");
  });
  it("toTranscript is the read leg alone", () => {
    expect(toTranscript(text, commonCodec)).toEqual({ transcript: sample, warnings: [] });
  });
});
