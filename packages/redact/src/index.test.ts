import { describePublicExports } from "@txcript/core/testing";
import { expect, it } from "vitest";
import * as redact from "./index.js";

describePublicExports("@txcript/redact", redact, [
  "planPartsRedaction",
  "redactTranscript",
  "redactionMarker",
  "secretlintRuleIds",
  "summarizeReport",
]);

it("runs secretlint's recommended rules except filter-comments", () => {
  expect(redact.secretlintRuleIds).toHaveLength(27);
  expect(redact.secretlintRuleIds).toContain("@secretlint/secretlint-rule-aws");
  expect(redact.secretlintRuleIds).not.toContain("@secretlint/secretlint-rule-filter-comments");
});
