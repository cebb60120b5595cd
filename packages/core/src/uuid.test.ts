import { describe, expect, it } from "vitest";
import { isUuid, uuidV5 } from "./uuid.js";

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
