import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonToCrush } from "./common-to-crush.js";
import { decodeParts, isGoBase64 } from "./crush-parts.js";
import type { CrushSession } from "./crush-schema.js";

function allParts(session: CrushSession): string[] {
  return [
    ...session.messages.map((row) => String(row.parts)),
    ...(session.children ?? []).flatMap(allParts),
  ];
}

describe("Crush's unmarshalParts rules", () => {
  it("accept what Crush itself wrote (parts of each era)", () => {
    const older =
      '[{"type":"tool_call","data":{"id":"toolu_1","name":"ls","input":"{\\"path\\":\\".\\"}","type":"tool_use","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1755472954}}]';
    const parts = decodeParts(older);
    expect(parts.map((part) => part.type)).toEqual(["tool_call", "finish"]);
    expect(parts[0]?.unknownKeys).toEqual(["type"]);
    expect(decodeParts("null")).toEqual([]);
    expect(
      decodeParts(
        '[{"type":"binary","data":{"Path":"a.txt","MIMEType":"text/plain","Data":"aGk="}}]',
      )[0]?.data.Data,
    ).toBe("aGk=");
  });

  it("match keys case-insensitively, the last one winning, as encoding/json does", () => {
    expect(decodeParts('[{"TYPE":"text","Data":{"TEXT":"a","text":"b"}}]')[0]?.data.text).toBe("b");
  });

  // Controls: each is a way the parts can be broken that Crush's Go code refuses.
  it.each([
    ["not JSON", "[{"],
    ["not an array", '{"type":"text"}'],
    ["a wrapper that is not an object", '["text"]'],
    ["an unknown part type", '[{"type":"video","data":{}}]'],
    ["a missing type", '[{"data":{}}]'],
    ["a null wrapper", "[null]"],
    ["missing data", '[{"type":"text"}]'],
    ["data that is not an object", '[{"type":"text","data":"hi"}]'],
    ["a text that is not a string", '[{"type":"text","data":{"text":1}}]'],
    ["a flag that is not a boolean", '[{"type":"tool_call","data":{"finished":"yes"}}]'],
    ["a time that is not an integer", '[{"type":"finish","data":{"time":1.5}}]'],
    ["binary data that is not base64", '[{"type":"binary","data":{"Data":"not base64!"}}]'],
    ["binary data without padding", '[{"type":"binary","data":{"Data":"aGk"}}]'],
  ])("refuse %s", (_name, text) => {
    expect(() => decodeParts(text)).toThrowError(/Crush would not load these parts/);
  });

  it("hold for every parts column the writer makes", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        for (const parts of allParts(commonToCrush(transcript)))
          expect(() => decodeParts(parts)).not.toThrow();
      }),
      lawParameters(200),
    );
  });

  it("base64 is Go's standard padded alphabet", () => {
    expect(isGoBase64("aGk=")).toBe(true);
    expect(isGoBase64("aG\nk=")).toBe(true);
    expect(isGoBase64("aGk")).toBe(false);
    expect(isGoBase64("a-_=")).toBe(false);
  });
});
