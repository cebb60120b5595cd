// gemini_cli.subagents says what happened to the subagents where they went:
// a store save (`forStore`, as `txcript continue` saves) writes each as a
// recording of its own under chats/<session id>/ without its link to the
// spawning call, agent type or model; a file written alone (`convert -o`,
// stdout) leaves them out. Checked over generated transcripts by saving
// into a temporary store and by reading the file alone back.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Subagent, Transcript, Warning } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { hasResumableContent } from "./gemini-cli-peek.js";
import { GeminiCliStore } from "./gemini-cli-store.js";

const now = new Date("2026-12-01T00:00:00.000Z");
const roots: string[] = [];
afterAll(async () => {
  for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
});

const withSubagents = transcriptArbitrary().filter(
  (transcript) => (transcript.subagents?.length ?? 0) > 0,
);

/** Every subagent, nested ones after their parent. */
function allSubagents(subagents: readonly Subagent[] | undefined): Subagent[] {
  return (subagents ?? []).flatMap((subagent) => [subagent, ...allSubagents(subagent.subagents)]);
}

function write(transcript: Transcript, forStore: boolean) {
  const warnings: Warning[] = [];
  const native = geminiCliCodec.fromCommon(transcript, {
    now,
    cwd: "/work/generated",
    ...(forStore ? { forStore } : {}),
    onWarning: (warning) => warnings.push(warning),
  });
  return {
    native,
    subagentLosses: warnings.filter((warning) => warning.code === "gemini_cli.subagents"),
  };
}

const savedMessage =
  "a subagent conversation was written as a recording of its own beside the session file, without the link to the tool call that spawned it, its agent type or its model";
const leftOutMessage =
  "a subagent conversation was left out of this file: a store save (`txcript continue`) writes it as a recording of its own beside the session file";

describe("gemini_cli.subagents", () => {
  const parameters = lawParameters(40);

  it("a store save names what it loses of each subagent, and the store gives each back without exactly that", async () => {
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(withSubagents, async (transcript) => {
        const { native, subagentLosses } = write(transcript, true);
        const written = allSubagents(transcript.subagents);
        expect(subagentLosses.map((warning) => warning.message)).toEqual(
          written.map(() => savedMessage),
        );
        // The store refuses a recording Gemini CLI would delete (nothing to resume).
        if (!hasResumableContent(native)) return;
        saved += 1;
        const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-sub-"));
        roots.push(root);
        const store = new GeminiCliStore({ root });
        const { id } = await store.save(native, { now });
        const back = allSubagents(geminiCliCodec.toCommon(await store.load(id)).subagents);
        // Each is back (by id), and none keeps a link, an agent type or a model.
        expect(back.map((subagent) => subagent.id).sort()).toEqual(
          written.map((subagent) => subagent.id).sort(),
        );
        for (const subagent of back) {
          expect(subagent.toolUseId).toBeUndefined();
          expect(subagent.agentType).toBeUndefined();
          expect(subagent.model).toBeUndefined();
        }
      }),
      parameters,
    );
    expect(saved).toBeGreaterThan(0);
  });

  it("the generated subagents have links, agent types and models to lose (the property is not vacuous)", () => {
    const sample = allSubagents(
      fc
        .sample(withSubagents, { numRuns: 40, seed: 1 })
        .flatMap((transcript) => transcript.subagents ?? []),
    );
    expect(sample.some((subagent) => subagent.toolUseId !== undefined)).toBe(true);
    expect(sample.some((subagent) => subagent.agentType !== undefined)).toBe(true);
  });

  it("written alone, the loss says each subagent was left out of the file, and it is", () => {
    fc.assert(
      fc.property(withSubagents, (transcript) => {
        const { native, subagentLosses } = write(transcript, false);
        expect(subagentLosses.map((warning) => warning.message)).toEqual(
          allSubagents(transcript.subagents).map(() => leftOutMessage),
        );
        const text = geminiCliCodec.serialize(native);
        expect(geminiCliCodec.toCommon(geminiCliCodec.parse(text)).subagents).toBeUndefined();
      }),
      parameters,
    );
  });
});
