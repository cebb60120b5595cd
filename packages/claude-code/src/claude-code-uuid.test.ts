import { uuidV5 } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeNamespace } from "./claude-code-paths.js";
import { claudeUuid, claudeUuidHex } from "./claude-code-uuid.js";

describe("claudeUuid", () => {
  it("is core's uuidV5 in the package namespace, for any name", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ minLength: 300 })),
        (name) => {
          const expected = uuidV5(name, claudeCodeNamespace);
          expect(claudeUuid(name)).toBe(expected);
          expect(claudeUuidHex(name)).toBe(expected.replaceAll("-", ""));
        },
      ),
      lawParameters(2000),
    );
  });

  it("matches after a long name grew the buffer", () => {
    const long = "ü".repeat(5000);
    expect(claudeUuid(long)).toBe(uuidV5(long, claudeCodeNamespace));
    expect(claudeUuid("a:line:0")).toBe(uuidV5("a:line:0", claudeCodeNamespace));
  });
});
