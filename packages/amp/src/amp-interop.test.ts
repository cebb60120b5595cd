// Interop with the real programs (DESIGN.md): threads written by fromCommon
// must render with the era-matched Amp CLI offline, and @ccusage/amp must
// count the same tokens as the Common transcript. Both are pinned dev
// dependencies of this package; a missing one skips with a visible reason.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { AmpStore } from "./amp-store.js";
import {
  ampOffline,
  ampBin as ampProgram,
  assistantUsages,
  ccusageBin as ccusageProgram,
  ccusageSessions,
  markdownProblem,
  run,
  scratchEnvironment,
  usageTotals,
} from "./test-support/amp-programs.js";
import { fixtureSamples } from "./test-support.js";

const ampBin = ampProgram;
const ccusageBin = ccusageProgram;

/** The conversations under test: every fixture (and the real export), and 20 generated transcripts. */
function transcripts(): { name: string; transcript: Transcript }[] {
  const fromFixtures = fixtureSamples().map(({ name, text }) => ({
    name,
    transcript: ampCodec.toCommon(ampCodec.parse(text)),
  }));
  const generated = fc
    .sample(transcriptArbitrary(), { numRuns: 20, seed: 20260112 })
    .map((transcript, index) => ({ name: `generated #${index}`, transcript }));
  return [...fromFixtures, ...generated];
}

let scratch = "";
let store: AmpStore;
const written: { name: string; id: string; transcript: Transcript }[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "amp-interop-"));
  mkdirSync(path.join(scratch, "home"));
  store = new AmpStore({ root: path.join(scratch, "data", "amp", "threads") });
  for (const { name, transcript } of transcripts()) {
    const { id } = await store.save(ampCodec.fromCommon(transcript), { overwrite: true });
    written.push({ name, id, transcript });
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the era-matched Amp CLI reads what fromCommon writes", () => {
  if (ampBin === undefined) {
    it.skip("skipped: @sourcegraph/amp@0.0.1768018268-gcd18ba is not installed (run pnpm install)", () => {});
    return;
  }
  it("`amp threads markdown <id>` exits 0 offline and shows every user and assistant text", async () => {
    const env = ampOffline(scratch);
    const failures: string[] = [];
    let next = 0;
    // Two at a time: this machine has two cores.
    const worker = async () => {
      while (next < written.length) {
        const thread = written[next++];
        if (thread === undefined) return;
        const result = await run(ampBin, ["threads", "markdown", thread.id], env);
        const problem = markdownProblem(result, thread.id, thread.transcript);
        if (problem !== undefined) failures.push(`${thread.name}: ${problem}`);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
    expect(written.length).toBeGreaterThanOrEqual(22);
  });
  it("exits 1 on a thread it cannot read, so the check above can fail", async () => {
    const broken = ampCodec.fromCommon(written[0]?.transcript as Transcript);
    const { created: _dropped, ...withoutCreated } = broken.document;
    const id = "T-00000000-0000-4000-8000-00000000dead";
    await store.save({ ...broken, document: { ...withoutCreated, id } }, { overwrite: true });
    const result = await run(ampBin, ["threads", "markdown", id], ampOffline(scratch));
    await store.delete(id);
    expect(result.code).toBe(1);
  });
});

describe("@ccusage/amp counts the transcript's tokens", () => {
  if (ccusageBin === undefined) {
    it.skip("skipped: @ccusage/amp@18.0.11 is not installed (run pnpm install)", () => {});
    return;
  }
  it("`ccusage-amp session --json` totals equal each thread's assistant usage", async () => {
    const result = await run(
      ccusageBin,
      ["session", "--json"],
      scratchEnvironment(scratch, {
        AMP_DATA_DIR: path.join(scratch, "data", "amp"),
        LOG_LEVEL: "0",
      }),
    );
    expect(result.code).toBe(0);
    const sessions = ccusageSessions(result);
    let counted = 0;
    for (const { name, id, transcript } of written) {
      const usages = assistantUsages(transcript);
      const session = sessions.get(id);
      if (usages.length === 0) {
        expect(session, name).toBeUndefined();
        continue;
      }
      counted += 1;
      expect(session, name).toEqual(usageTotals(usages));
    }
    expect(counted).toBeGreaterThan(10);
  });
});

describe("the compatibility probe (test-support/probe.ts)", () => {
  const sample = () => written[0]?.transcript as Transcript;
  it.skipIf(ampBin === undefined)(
    "passes amp threads markdown on what fromCommon writes",
    async () => {
      const { probe } = await import("./test-support/probe.js");
      expect(await probe.run(sample(), "amp")).toMatchObject({ ok: true });
    },
  );
  it.skipIf(ccusageBin === undefined)("passes ccusage-amp on what fromCommon writes", async () => {
    const { probe } = await import("./test-support/probe.js");
    expect(await probe.run(sample(), "ccusage-amp")).toMatchObject({ ok: true });
  });
  it("fails, without throwing, for a program it does not know", async () => {
    const { probe } = await import("./test-support/probe.js");
    expect(await probe.run(sample(), "nope")).toEqual({
      ok: false,
      detail: 'unknown program "nope"',
    });
  });
});

describe("markdownProblem (the probe's check of `amp threads markdown`)", () => {
  const at = "2026-01-01T00:00:00.000Z";
  const transcript = {
    meta: { id: "T-1", timestamp: at },
    messages: [
      {
        role: "user" as const,
        timestamp: at,
        content: [{ type: "text" as const, text: "intro\n\n# Tone and style\n* be brief" }],
      },
    ],
  };
  const shown = (body: string) => ({ code: 0, stdout: `threadId: T-1\n\n${body}`, stderr: "" });

  it("finds a text whose headings amp moved one level down", () => {
    expect(
      markdownProblem(
        shown("## User\n\nintro\n\n## Tone and style\n* be brief\n"),
        "T-1",
        transcript,
      ),
    ).toBeUndefined();
  });

  it("fails when the text is not shown, or shown with other words (the controls)", () => {
    expect(markdownProblem(shown("## User\n\nintro\n"), "T-1", transcript)).toMatch(
      /^missing user text/,
    );
    expect(
      markdownProblem(
        shown("## User\n\nintro\n\n## Tone and manner\n* be brief\n"),
        "T-1",
        transcript,
      ),
    ).toMatch(/^missing user text/);
  });
});
