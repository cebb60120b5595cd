// Where the fixtures and real captures are, and the read options the
// fixtures' .common.json were written with. Shared by the tests and the
// fixture maintenance script; not part of the package entry.
import path from "node:path";
import type { StreamJsonReadOptions } from "./stream-json-to-common.js";

export const repoRoot = path.resolve(import.meta.dirname, "../../..");
export const fixturesDirectory = path.join(repoRoot, "fixtures/stream-json");
/** Real third-party captures, outside the repository (tests skip when absent). */
export const realDirectory = path.resolve(repoRoot, "../shared/real");

/** The start time the fixtures' untimed lines are stamped from (their README says so). */
export const fixtureReadOptions: StreamJsonReadOptions = {
  startTime: new Date("2026-05-01T12:00:00.000Z"),
};
