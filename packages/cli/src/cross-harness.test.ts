// Law 5 over the registry: for every ordered pair of harnesses A → B,
// converting through A's text and then B's keeps the conversation signature
// of sig(projectB(projectA(c))). A harness with dialects runs once per
// dialect. Runs per pair: TXCRIPT_LAW_RUNS, else the figure below (chosen so
// the CLI suite stays within its time budget on a 2-core machine).
import { describeCrossHarnessLaws, harnessesUnderTest, lawRuns } from "@txcript/core/testing";
import { harnessList, loadRegistry } from "./harnesses.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

describeCrossHarnessLaws(harnessesUnderTest(harnessList()), { numRuns: lawRuns(1000) });
