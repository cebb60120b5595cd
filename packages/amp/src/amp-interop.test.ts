// Interop with the real programs (DESIGN.md): threads written by fromCommon
// must render with the era-matched Amp CLI offline, and @ccusage/amp must
// count the same tokens as the Common transcript. Both are pinned dev
// dependencies of this package; a missing one skips with a visible reason.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, Usage } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { AmpStore } from "./amp-store.js";
import { fixtureSamples } from "./test-support.js";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function binOf(name: string, bin: string): string | undefined {
  const manifest = path.join(packageDir, "node_modules", name, "package.json");
  if (!existsSync(manifest)) return undefined;
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8")) as {
    bin: string | Record<string, string>;
  };
  const relative = typeof bins === "string" ? bins : bins[bin];
  return relative === undefined ? undefined : path.join(path.dirname(manifest), relative);
}

const ampBin = binOf("@sourcegraph/amp", "amp");
const ccusageBin = binOf("@ccusage/amp", "ccusage-amp");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env, timeout: 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

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

function environment(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: path.join(scratch, "home"),
    XDG_CONFIG_HOME: path.join(scratch, "config"),
    XDG_CACHE_HOME: path.join(scratch, "cache"),
    NO_COLOR: "1",
    ...extra,
  };
}

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
    const env = environment({
      XDG_DATA_HOME: path.join(scratch, "data"),
      AMP_API_KEY: "offline",
      AMP_URL: "http://127.0.0.1:9",
    });
    const failures: string[] = [];
    let next = 0;
    // Two at a time: this machine has two cores.
    const worker = async () => {
      while (next < written.length) {
        const thread = written[next++];
        if (thread === undefined) return;
        const result = await run(ampBin, ["threads", "markdown", thread.id], env);
        if (result.code !== 0) {
          failures.push(
            `${thread.name}: exit ${result.code}: ${(result.stderr || result.stdout).slice(0, 300)}`,
          );
          continue;
        }
        if (!result.stdout.includes(`threadId: ${thread.id}`))
          failures.push(`${thread.name}: no thread header`);
        for (const message of thread.transcript.messages)
          for (const block of message.content)
            if (
              block.type === "text" &&
              block.text.trim() !== "" &&
              !result.stdout.includes(block.text)
            )
              failures.push(
                `${thread.name}: missing ${message.role} text ${JSON.stringify(block.text.slice(0, 60))}`,
              );
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
    const result = await run(
      ampBin,
      ["threads", "markdown", id],
      environment({
        XDG_DATA_HOME: path.join(scratch, "data"),
        AMP_API_KEY: "offline",
        AMP_URL: "http://127.0.0.1:9",
      }),
    );
    await store.delete(id);
    expect(result.code).toBe(1);
  });
});

function sum(usages: Usage[]) {
  return {
    inputTokens: usages.reduce((total, usage) => total + usage.inputTokens, 0),
    outputTokens: usages.reduce((total, usage) => total + usage.outputTokens, 0),
    cacheCreationTokens: usages.reduce((total, usage) => total + usage.cacheCreationInputTokens, 0),
    cacheReadTokens: usages.reduce((total, usage) => total + usage.cacheReadInputTokens, 0),
  };
}

describe("@ccusage/amp counts the transcript's tokens", () => {
  if (ccusageBin === undefined) {
    it.skip("skipped: @ccusage/amp@18.0.11 is not installed (run pnpm install)", () => {});
    return;
  }
  it("`ccusage-amp session --json` totals equal each thread's assistant usage", async () => {
    const result = await run(
      ccusageBin,
      ["session", "--json"],
      environment({ AMP_DATA_DIR: path.join(scratch, "data", "amp"), LOG_LEVEL: "0" }),
    );
    expect(result.code).toBe(0);
    // Its pricing-fetch failure (no network) is logged on stdout before the JSON.
    const json = result.stdout.slice(result.stdout.search(/^\{/m));
    const report = JSON.parse(json) as {
      sessions: ({ threadId: string } & ReturnType<typeof sum>)[];
    };
    const sessions = new Map(report.sessions.map((session) => [session.threadId, session]));
    let counted = 0;
    for (const { name, id, transcript } of written) {
      const usages = transcript.messages.flatMap((message) =>
        message.role === "assistant" && message.usage !== undefined ? [message.usage] : [],
      );
      const session = sessions.get(id);
      if (usages.length === 0) {
        expect(session, name).toBeUndefined();
        continue;
      }
      counted += 1;
      expect(session, name).toBeDefined();
      expect(
        {
          inputTokens: session?.inputTokens,
          outputTokens: session?.outputTokens,
          cacheCreationTokens: session?.cacheCreationTokens,
          cacheReadTokens: session?.cacheReadTokens,
        },
        name,
      ).toEqual(sum(usages));
    }
    expect(counted).toBeGreaterThan(10);
  });
});
