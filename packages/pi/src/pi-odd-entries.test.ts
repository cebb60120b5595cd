// Sessions pi could have written, and ones no pi wrote: entries of every
// type with every field either its documented kind or any JSON value.
// Parsing stays byte-exact, and toCommon returns a transcript Common's own
// schema accepts (never throws, never a wrong type through).
import { validateTranscript } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { oddSessionArbitrary } from "./test-support/pi-odd-sessions.js";

describe("odd pi entries", () => {
  it("parse is byte-exact and toCommon gives a valid Common transcript", () => {
    fc.assert(
      fc.property(oddSessionArbitrary, (text) => {
        const parsed = piCodec.parse(text);
        expect(piCodec.serialize(parsed)).toBe(text);
        const transcript = piCodec.toCommon(parsed);
        expect(() => validateTranscript(transcript)).not.toThrow();
      }),
      lawParameters(),
    );
  });
});
