import { describe, expect, it } from "vitest";
import { lawParameters } from "./testing/index.js";
import { isUuid, uuidV5, uuidV5In } from "./uuid.js";

describe("uuidV5", () => {
  it("matches the RFC 9562 test vector (DNS namespace, www.example.com)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });
  it("is deterministic and a valid version-5 UUID", () => {
    const id = uuidV5("T-abc", "6ba7b811-9dad-11d1-80b4-00c04fd430c8");
    expect(id).toBe(uuidV5("T-abc", "6ba7b811-9dad-11d1-80b4-00c04fd430c8"));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe("5");
  });
});

describe("uuidV5In", () => {
  it("agrees with a from-scratch SHA-1 construction for any name", async () => {
    const fc = (await import("fast-check")).default;
    const { createHash } = await import("node:crypto");
    const namespace = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
    const derive = uuidV5In(namespace);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (name) => {
        const bytes = createHash("sha1")
          .update(Buffer.from(namespace.replaceAll("-", ""), "hex"))
          .update(name, "utf8")
          .digest();
        bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
        bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
        const hex = bytes.subarray(0, 16).toString("hex");
        expect(derive(name)).toBe(
          `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
        );
      }),
      lawParameters(1000),
    );
  });
});
