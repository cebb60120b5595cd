// Law 5 over the CLI's registry: for every ordered pair of harnesses A → B,
// converting through A's text and then B's keeps the conversation signature
// of sig(projectB(projectA(c))). stream-json runs once per dialect. Runs per
// pair: TXCRIPT_LAW_RUNS, else the figure below (chosen so the CLI suite
// stays within its time budget on a 2-core machine).
import { describeCrossHarnessLaws, type HarnessUnderTest, lawRuns } from "@txcript/core/testing";
import { streamJsonProject } from "@txcript/stream-json";
import { findHarness, harnesses } from "./harnesses.js";

const underTest: HarnessUnderTest[] = harnesses.flatMap((harness): HarnessUnderTest[] => {
  if (harness.id !== "stream_json")
    return [{ codec: harness.codec, project: harness.project, label: harness.id }];
  return (["claude", "amp"] as const).map((dialect) => ({
    codec: harness.codec,
    project: streamJsonProject(dialect),
    writeOptions: { dialect },
    label: `stream_json (${dialect})`,
  }));
});

// Sanity: the registry is what the laws run over, every harness included.
if (underTest.length !== harnesses.length + 1 || !findHarness("stream-json")) {
  throw new Error("cross-harness laws: the registry changed shape; update this test");
}

describeCrossHarnessLaws(underTest, { numRuns: lawRuns(1000) });
