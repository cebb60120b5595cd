// The streaming redaction (redact-stream.ts) is the whole one: for
// generated transcripts with fake secrets mixed in (one split across two
// messages), for the seeded corpus, and with chunks small enough that the
// scan crosses chunk boundaries, planPartsRedaction's report is
// redactTranscript's and its parts are the redacted transcript's parts; the
// input is not changed, and a message is copied only when it holds a secret.
// Controls: a plan applied to other parts, and a scan restarted per message,
// differ where they must.
import {
  collectTranscript,
  type StreamPart,
  type Transcript,
  transcriptParts,
} from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planPartsRedaction } from "./redact-stream.js";
import { type RedactOptions, redactTranscript } from "./redact-transcript.js";
import { fakeSecrets, seededCorpus, seededTranscriptArbitrary } from "./test-support.js";

/** A generated transcript with fakes in some texts, and a private key split across two texts. */
const withSecrets = seededTranscriptArbitrary({ splitPrivateKey: true }).map(
  ({ transcript }) => transcript,
);

/** Both ways, side by side: the parts and the report. */
async function bothWays(transcript: Transcript, options: RedactOptions = {}) {
  const whole = await redactTranscript(transcript, options);
  const plan = await planPartsRedaction(transcriptParts(transcript), options);
  return {
    whole: { parts: [...transcriptParts(whole.transcript)], report: whole.report },
    streamed: { parts: [...plan.apply(transcriptParts(transcript))], report: plan.report },
  };
}

async function expectSame(transcript: Transcript, options: RedactOptions = {}) {
  const before = structuredClone(transcript);
  const { whole, streamed } = await bothWays(transcript, options);
  expect(streamed).toEqual(whole);
  expect(transcript).toEqual(before);
  return whole;
}

describe("planPartsRedaction: the whole redaction, from a stream of parts", () => {
  it("generated transcripts with fake secrets: the same parts and report", async () => {
    await fc.assert(
      fc.asyncProperty(withSecrets, async (transcript) => {
        await expectSame(transcript);
      }),
      lawParameters(Math.min(60, lawParameters().numRuns ?? 60)),
    );
  });

  it("the same with chunks of 200 characters (the scan crosses chunk boundaries)", async () => {
    await fc.assert(
      fc.asyncProperty(withSecrets, async (transcript) => {
        await expectSame(transcript, { chunkChars: 200 });
      }),
      lawParameters(Math.min(40, lawParameters().numRuns ?? 40)),
    );
  });

  for (const seed of [1, 2, 3])
    it(`seeded corpus ${seed} (every kind, every place, subagents): the same, secrets found`, async () => {
      const corpus = seededCorpus(seed);
      for (const options of [{}, { positions: false }, { chunkChars: 100 }]) {
        const whole = await expectSame(corpus.transcript, options);
        if (options.positions === undefined) expect(whole.report.total).toBeGreaterThan(5);
      }
    });

  it("copies only the messages that hold a secret; the others are the parts read", async () => {
    const corpus = seededCorpus(1);
    const parts = [...transcriptParts(corpus.transcript)];
    const plan = await planPartsRedaction(parts);
    const out = [...plan.apply(parts)];
    const kept = out.filter((part, index) => part === parts[index]).length;
    const clean = corpus.transcript.messages.filter(
      (message) =>
        !plan.report.locations.some(
          (location) =>
            location.message !== undefined &&
            corpus.transcript.messages[location.message - 1] === message,
        ),
    ).length;
    expect(kept).toBeGreaterThanOrEqual(clean);
    expect(kept).toBeLessThan(parts.length);
    expect(collectTranscript(out)).toEqual(
      collectTranscript(transcriptParts((await redactTranscript(corpus.transcript)).transcript)),
    );
  });

  it("a secret split across two messages is found in both, as the whole scan finds it", async () => {
    const f = fakeSecrets(7);
    const lines = f.privateKey.split("\n");
    const timestamp = "2026-03-01T10:00:00.000Z";
    const transcript: Transcript = {
      meta: { id: "s-1", timestamp },
      messages: [lines.slice(0, 3), lines.slice(3)].map((part) => ({
        role: "user" as const,
        content: [{ type: "text" as const, text: part.join("\n") }],
        timestamp,
      })),
    };
    const whole = await expectSame(transcript);
    expect(whole.report.kinds["private-key"]?.messages).toEqual([1, 2]);
  });
});

describe("planPartsRedaction: controls", () => {
  it("a plan applied to other parts (one message fewer) does not give the whole redaction", async () => {
    const corpus = seededCorpus(2);
    const parts = [...transcriptParts(corpus.transcript)];
    const plan = await planPartsRedaction(parts);
    const shifted = [parts[0], ...parts.slice(2)] as StreamPart[];
    const whole = await redactTranscript(corpus.transcript);
    expect(JSON.stringify([...plan.apply(shifted)])).toContain(fakeSecrets(2).githubClassic);
    expect(JSON.stringify(whole.transcript)).not.toContain(fakeSecrets(2).githubClassic);
  });

  it("a scan restarted per message misses the split secret the law requires found", async () => {
    const f = fakeSecrets(7);
    const lines = f.privateKey.split("\n");
    const timestamp = "2026-03-01T10:00:00.000Z";
    const halves = [lines.slice(0, 3), lines.slice(3)].map((part) => ({
      role: "user" as const,
      content: [{ type: "text" as const, text: part.join("\n") }],
      timestamp,
    }));
    const perMessage = await Promise.all(
      halves.map((message) =>
        planPartsRedaction(
          transcriptParts({ meta: { id: "s-1", timestamp }, messages: [message] }),
        ),
      ),
    );
    // The first half (BEGIN and key text cut short) is a private key alone (redact-formats.ts);
    // the second (the rest of the key text and END) is found only by a scan across messages.
    expect(perMessage.map((plan) => plan.report.total)).toEqual([1, 0]);
  });
});
