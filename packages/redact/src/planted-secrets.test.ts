// Redaction recall on the planted-secret corpus (planted-secrets.ts): with a
// fixed seed, at least 98 % of the planted secrets of the kinds secretlint
// and gitleaks name are gone after redactTranscript, and at most 1 % of the
// benign lines that look close are changed; and each kind and place issue
// 33 named as surviving (EC, Ed25519 and encrypted private keys, Google
// `AIza…` keys, Azure `AccountKey=`, SendGrid keys with `-`, URL passwords
// with special characters, `"Authorization": "Bearer …"` inside tool-call
// JSON, tokens in the working directory and git branch) is redacted every
// time it is planted. Not timed.
import type { Transcript } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { measurePlanted, type PlantedMeasure, plantedCorpus } from "./planted-secrets.js";
import { redactTranscript } from "./redact-transcript.js";

const seed = 20261206;

async function measure(): Promise<PlantedMeasure> {
  const corpus = plantedCorpus(seed);
  const redacted: Transcript[] = [];
  for (const transcript of corpus.transcripts)
    redacted.push((await redactTranscript(transcript)).transcript);
  return measurePlanted(corpus, redacted);
}

const measured = measure();

const survivors = (m: PlantedMeasure) =>
  m.survived.map((secret) => `${secret.kind} in ${secret.place}`).join("; ");

describe("redaction recall on the planted-secret corpus", () => {
  it("the corpus is what it says: every kind, every place, the secrets in it before redaction", async () => {
    const corpus = plantedCorpus(seed);
    expect(plantedCorpus(seed)).toEqual(corpus);
    const unredacted = measurePlanted(corpus, corpus.transcripts);
    // The control: nothing redacted, nothing gone, no benign line changed.
    expect(unredacted.survived.length).toBe(corpus.secrets.length);
    expect(unredacted.changed).toEqual([]);
    expect(corpus.secrets.length).toBeGreaterThanOrEqual(250);
    expect(corpus.benign.length).toBe(2_000);
    expect(Object.keys(unredacted.byPlace).sort()).toEqual(
      [
        "cwd",
        "git-branch",
        "title",
        "text",
        "thinking",
        "shell-command",
        "tool-input-json",
        "tool-input-authorization",
        "tool-result",
        "tool-result-json",
        "compaction",
        "subagent",
      ].sort(),
    );
  });

  it("finds at least 98 % of the planted secrets", async () => {
    const m = await measure();
    expect(m.recall, survivors(m)).toBeGreaterThanOrEqual(0.98);
  });

  it("changes at most 1 % of the benign lines", async () => {
    const m = await measured;
    expect(m.falsePositiveRate, m.changed.slice(0, 20).join("\n")).toBeLessThanOrEqual(0.01);
  });

  const named = [
    "ec-private-key",
    "ed25519-private-key",
    "encrypted-private-key",
    "encrypted-rsa-private-key",
    "private-key-json-escaped",
    "gcp-api-key",
    "azure-storage-key",
    "sendgrid-api-key",
    "url-password",
    "authorization-bearer",
  ];
  it.each(named)("redacts every %s planted", async (kind) => {
    const m = await measured;
    const entry = m.byKind[kind];
    expect(entry?.planted).toBeGreaterThan(0);
    expect(entry?.survived, survivors(m)).toBe(0);
  });

  it.each(["cwd", "git-branch", "tool-input-authorization", "tool-result-json"])(
    "redacts every secret planted in the %s",
    async (place) => {
      const m = await measured;
      const entry = m.byPlace[place];
      expect(entry?.planted).toBeGreaterThan(0);
      expect(entry?.survived, survivors(m)).toBe(0);
    },
  );
});
