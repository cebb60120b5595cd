// Redaction before writing: a redacted corpus session written in every
// registered harness's format (every dialect) carries none of the secrets,
// while the same session unredacted does (the control), and reads back.
import type { CodecOptions } from "@txcript/core";
import { harnessDefinitions } from "@txcript/harnesses";
import { describe, expect, it } from "vitest";
import { redactTranscript } from "./redact-transcript.js";
import { seededCorpus } from "./test-support.js";

/** Each secret as it may appear in a format: raw, or inside a JSON string. */
const spellings = (secret: string) => [secret, JSON.stringify(secret).slice(1, -1)];

describe("a redacted session written in every harness's format", () => {
  for (const harness of harnessDefinitions) {
    const variants: { label: string; options: CodecOptions }[] = harness.variants?.map(
      (variant) => ({ label: variant.label, options: variant.writeOptions }),
    ) ?? [{ label: "default", options: harness.writeOptions?.({}) ?? {} }];
    for (const variant of variants)
      it(`${harness.id} (${variant.label}) carries no secret`, async () => {
        const corpus = seededCorpus(21);
        const write = (transcript: typeof corpus.transcript) =>
          harness.codec.serialize(
            harness.codec.fromCommon(transcript, { ...variant.options, onWarning: () => {} }),
          );
        const plain = write(corpus.transcript);
        const leaked = (text: string) =>
          corpus.secrets.filter((secret) =>
            spellings(secret).some((spelling) => text.includes(spelling)),
          );
        // Control: the writer carries the secrets when nothing is redacted.
        expect(leaked(plain).length).toBeGreaterThan(0);
        const { transcript } = await redactTranscript(corpus.transcript);
        const written = write(transcript);
        expect(leaked(written)).toEqual([]);
        // And the harness reads it back: redaction left every id and structure its reader needs.
        const back = harness.codec.toCommon(harness.codec.parse(written, {}), {
          onWarning: () => {},
        });
        expect(back.messages.length).toBe(harness.project(transcript).messages.length);
      });
  }
});
