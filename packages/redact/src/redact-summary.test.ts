import { expect, it } from "vitest";
import { summarizeReport } from "./redact-summary.js";
import { redactTranscript } from "./redact-transcript.js";
import { seededCorpus } from "./test-support.js";

it("summarizes kinds by count with their ordinals", async () => {
  const { report } = await redactTranscript(seededCorpus(2).transcript);
  expect(summarizeReport(report)).toBe(
    "redacted 14 secrets: github-token ×3 (#2, #6, #7); slack-token ×2 (#2, #5); anthropic-api-key ×1 (#3); " +
      "authorization-header ×1 (#2); aws-access-key ×1 (#1); aws-secret-key ×1 (#1); connection-string ×1 (#4); " +
      "jwt ×1 (#5); openai-api-key ×1 (#3); private-key ×1 (#4); secret-value ×1 (#4)",
  );
});

it("says when nothing was found, and cuts long ordinal lists", () => {
  expect(summarizeReport({ total: 0, kinds: {}, locations: [] })).toBe("redacted no secrets");
  const messages = Array.from({ length: 10 }, (_, index) => index + 1);
  expect(
    summarizeReport({ total: 10, kinds: { jwt: { count: 10, messages } }, locations: [] }),
  ).toBe("redacted 10 secrets: jwt ×10 (#1, #2, #3, #4, #5, #6, #7, #8, 2 more)");
  expect(
    summarizeReport({ total: 1, kinds: { jwt: { count: 1, messages: [] } }, locations: [] }),
  ).toBe("redacted 1 secret: jwt ×1");
});
