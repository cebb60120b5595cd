import { readFileSync } from "node:fs";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonCodec } from "./common-codec.js";
import { commonJsonSchema } from "./json-schema.js";
import { lawParameters } from "./testing/index.js";

const checkedIn = new URL("../../../docs/schema/common-v2.schema.json", import.meta.url);

describe("docs/schema/common-v2.schema.json", () => {
  it("is current with the zod schemas (regenerate: pnpm --filter @txcript/core schema:write)", () => {
    expect(JSON.parse(readFileSync(checkedIn, "utf8"))).toEqual(commonJsonSchema());
  });

  const validate = new Ajv2020({ strict: false, allErrors: false }).compile(
    JSON.parse(readFileSync(checkedIn, "utf8")),
  );

  it("accepts every generated Common document", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const document = JSON.parse(commonCodec.serialize(commonCodec.fromCommon(transcript)));
        expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      }),
      lawParameters(300),
    );
  });

  it("rejects what the zod schemas reject", () => {
    const good = {
      format: "txcript.common/v1",
      meta: { id: "a", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [],
    };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, format: "txcript.common/v2" })).toBe(true);
    expect(validate({ ...good, format: "txcript.common/v3" })).toBe(false);
    expect(
      validate({
        ...good,
        messages: [
          {
            role: "user",
            timestamp: "2026-01-01T00:00:00.000Z",
            content: [{ type: "compaction", summary: "s", history: [{ role: "robot" }] }],
          },
        ],
      }),
    ).toBe(false);
    expect(validate({ ...good, meta: { id: "a", timestamp: "yesterday" } })).toBe(false);
    expect(validate({ ...good, extra: 1 })).toBe(false);
    expect(
      validate({
        ...good,
        messages: [
          { role: "user", timestamp: "2026-01-01T00:00:00.000Z", content: [{ type: "video" }] },
        ],
      }),
    ).toBe(false);
  });
});
