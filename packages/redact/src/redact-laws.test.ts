// Laws over generated transcripts (every Common v2 feature, from core's
// arbitraries) with fake secrets mixed into their text: redaction never
// throws, keeps the transcript valid, changes nothing but the free text it
// scans, removes every seeded secret, and a second pass finds nothing.
import { type Block, type Json, type Message, type Subagent, Transcript } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactTranscript } from "./redact-transcript.js";
import { seededTranscriptArbitrary } from "./test-support.js";

const free = "<free text>";

/** Json with every string value (never a key) masked. */
function maskJson(value: Json): Json {
  if (typeof value === "string") return free;
  if (Array.isArray(value)) return value.map(maskJson);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskJson(item)]));
  return value;
}

/** The transcript with the free text redaction may change masked: what must stay identical. */
function fixedPart(transcript: Transcript): unknown {
  const block = (content: Block): unknown => {
    switch (content.type) {
      case "text":
      case "thinking":
        return { ...content, text: free };
      case "tool_use":
        return {
          ...content,
          tool: { ...content.tool, input: maskJson(content.tool.input as Json) },
        };
      case "tool_result":
        return { ...content, content: maskJson(content.content) };
      case "compaction":
        return { ...content, summary: free, history: content.history?.map(message) };
      case "image":
        return content;
    }
  };
  const message = (item: Message): unknown => ({ ...item, content: item.content.map(block) });
  const subagent = (item: Subagent): unknown => ({
    ...item,
    ...(item.title === undefined ? {} : { title: free }),
    messages: item.messages.map(message),
    subagents: item.subagents?.map(subagent),
  });
  return {
    meta: { ...transcript.meta, ...(transcript.meta.title === undefined ? {} : { title: free }) },
    messages: transcript.messages.map(message),
    subagents: transcript.subagents?.map(subagent),
  };
}

/** The transcript with a fake secret appended to some text blocks, and the secrets used. */
const seededTranscript = seededTranscriptArbitrary();

describe("redactTranscript laws", () => {
  it("keeps the transcript valid and everything but free text identical; removes every seeded secret; is idempotent", async () => {
    await fc.assert(
      fc.asyncProperty(seededTranscript, async ({ transcript, secrets }) => {
        const before = structuredClone(transcript);
        const once = await redactTranscript(transcript);
        expect(transcript).toEqual(before);
        expect(Transcript.safeParse(once.transcript).success).toBe(true);
        expect(fixedPart(once.transcript)).toEqual(fixedPart(transcript));
        const text = JSON.stringify(once.transcript);
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(once.report.total).toBeGreaterThanOrEqual(secrets.length);
        expect(once.report.total).toBe(
          once.report.locations.reduce((sum, location) => sum + location.count, 0),
        );
        const twice = await redactTranscript(once.transcript);
        expect(twice.report.total).toBe(0);
        expect(twice.transcript).toEqual(once.transcript);
        if (once.report.total === 0) expect(once.transcript).toEqual(transcript);
      }),
      lawParameters(),
    );
  });
});
