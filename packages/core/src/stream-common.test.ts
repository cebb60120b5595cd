import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oddShapesArbitrary, transcriptArbitrary } from "./arbitraries/index.js";
import { commonCodec } from "./common-codec.js";
import { transcriptInput } from "./stream.js";
import { commonWriteStream } from "./stream-common.js";
import { lawParameters } from "./testing/index.js";

describe("the Common document in pieces", () => {
  it("is the text of commonCodec.serialize(fromCommon(t)), odd shapes and empty lists included", () => {
    fc.assert(
      fc.property(fc.oneof(transcriptArbitrary(), oddShapesArbitrary()), (transcript) => {
        const whole = commonCodec.serialize(commonCodec.fromCommon(transcript));
        expect([...commonWriteStream(transcriptInput(transcript))].join("")).toBe(whole);
        const empty = { ...transcript, messages: [], subagents: [] };
        expect([...commonWriteStream(transcriptInput(empty))].join("")).toBe(
          commonCodec.serialize(commonCodec.fromCommon({ meta: transcript.meta, messages: [] })),
        );
      }),
      lawParameters(),
    );
  });
});
