import { existsSync } from "node:fs";
import { describeCodecLaws } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampProject } from "./amp-project.js";
import { fixtureNames, fixtureSamples, realExport } from "./test-support.js";

describeCodecLaws({ codec: ampCodec, project: ampProject, samples: fixtureSamples });

describe("amp: law 1's samples", () => {
  it("are every in-repo fixture, by name", () => {
    expect(fixtureNames()).toEqual([
      "export-thread.json",
      "legacy-thread.json",
      "read-gaps-thread.json",
    ]);
  });
  it.skipIf(!existsSync(realExport))(
    `include the real export ${existsSync(realExport) ? "" : "(skipped: ../shared/real is absent)"}`,
    () => {
      expect(fixtureSamples().map((sample) => sample.name)).toContain(
        "../shared/real/amp-export-convo.json",
      );
    },
  );
});
