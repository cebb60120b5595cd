// The streaming path of `convert` end to end: with TXCRIPT_STREAM_MIN_BYTES=0
// every file whose two sides stream takes it, and its output file, --json
// result, warnings and loss report are byte for byte the whole path's. It is
// the streaming path that ran: the input limit, set below the file's size,
// does not refuse it; a pair that cannot stream is refused past the limit,
// saying why; below the threshold the whole path runs and the limit holds.
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  fixturesRoot,
  type Home,
  listFiles,
  makeHome,
  realRoot,
  removeHome,
  txcript,
  useHome,
} from "./e2e.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

function jsonl(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(directory, name));
}

const codexInputs = [
  ...jsonl(path.join(fixturesRoot, "codex")),
  ...jsonl(path.join(realRoot, "codex")).slice(0, 4),
];
const claudeInputs = [
  ...jsonl(path.join(fixturesRoot, "claude-code")),
  ...jsonl(path.join(realRoot, "claude-code")).slice(0, 3),
];

const streamJsonInputs = [
  ...jsonl(path.join(fixturesRoot, "stream-json")),
  ...[path.join(realRoot, "amp-stream-same-run.jsonl")].filter((file) => existsSync(file)),
];
const geminiInputs = [
  ...jsonl(path.join(fixturesRoot, "gemini-cli")),
  ...jsonl(path.join(realRoot, "gemini")),
];

const ampInputs = [
  ...readdirSync(path.join(fixturesRoot, "amp"))
    .filter((name) => name.endsWith("-thread.json"))
    .sort()
    .map((name) => path.join(fixturesRoot, "amp", name)),
  ...[path.join(realRoot, "amp-export-convo.json")].filter((file) => existsSync(file)),
];

const opencodeInputs = [
  ...readdirSync(path.join(fixturesRoot, "opencode"))
    .filter((name) => name.endsWith(".json") && !name.endsWith(".common.json"))
    .sort()
    .map((name) => path.join(fixturesRoot, "opencode", name)),
  ...["export-1.2.20-codectx.json"]
    .map((name) => path.join(realRoot, "opencode", name))
    .filter((file) => existsSync(file)),
];

const piInputs = [...jsonl(path.join(fixturesRoot, "pi")), ...jsonl(path.join(realRoot, "pi"))];

const streamAlways = { TXCRIPT_STREAM_MIN_BYTES: "0" };

/** A fake GitHub token (built so no scanner flags this file), planted by withSecrets. */
const fakeToken = ["gh", "p_"].join("") + "q7Rk2LmZ8vXw4Nc1Jt6Yb9Hs3Df5Ga0Pe2Uo";

/** A copy of a session file with the fake token in every text (and a note of it in the first). */
async function withSecrets(file: string): Promise<string> {
  const copy = path.join(home.work, `secret-${path.basename(file)}`);
  const text = readFileSync(file, "utf8").replaceAll('"text":"', `"text":"${fakeToken} `);
  expect(text.split(fakeToken).length).toBeGreaterThan(2);
  await fs.writeFile(copy, text);
  return copy;
}

/** One conversion's every output: exit code, stdout (the --json result or nothing), stderr, the file. */
async function run(input: string, to: string, env: Record<string, string>, extra: string[] = []) {
  const out = path.join(home.work, "out.jsonl");
  await fs.rm(out, { force: true });
  const result = await txcript(home, ["convert", input, "--to", to, "-o", "out.jsonl", ...extra], {
    env,
  });
  const text = existsSync(out) ? readFileSync(out, "utf8") : undefined;
  await fs.rm(out, { force: true });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, text };
}

describe("convert, streamed", () => {
  for (const [from, inputs, targets] of [
    ["codex", codexInputs, ["codex", "claude_code", "common"]],
    ["claude_code", claudeInputs, ["codex", "claude_code", "common", "stream_json", "pi", "amp"]],
  ] as const)
    it(`${from} inputs give the whole path's output, result and report`, async () => {
      expect(inputs.length).toBeGreaterThan(2);
      for (const input of inputs)
        for (const to of targets)
          for (const extra of [["--json"], ["--losses", "all"]]) {
            const whole = await run(input, to, {}, extra);
            const streamed = await run(input, to, streamAlways, extra);
            expect(whole.code, `${input} → ${to}: ${whole.stderr}`).toBe(0);
            expect(streamed, `${input} → ${to} ${extra.join(" ")}`).toEqual(whole);
          }
    });

  // Read line by line, written by a streaming writer (Amp's too): stream-json captures, Gemini
  // CLI's JSONL recordings, pi sessions, and Amp threads and OpenCode exports (one JSON document
  // each, walked line by line).
  for (const [from, inputs] of [
    ["amp", ampInputs],
    ["opencode", opencodeInputs],
    ["stream_json", streamJsonInputs],
    ["gemini_cli", geminiInputs],
    ["pi", piInputs],
  ] as const)
    it(`${from} inputs stream past the input limit and give the whole path's output`, async () => {
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) {
        const limited = { TXCRIPT_MAX_INPUT_BYTES: String(readFileSync(input).length - 1) };
        for (const to of ["codex", "claude_code", "common", "stream_json", "pi", "amp"]) {
          const whole = await run(input, to, {}, ["--json", "--from", from]);
          expect(whole.code, `${input} → ${to}: ${whole.stderr}`).toBe(0);
          const streamed = await run(input, to, { ...limited, ...streamAlways }, [
            "--json",
            "--from",
            from,
          ]);
          expect(streamed, `${input} → ${to}`).toEqual(whole);
        }
        // Control: read whole (below the threshold), the limit refuses it.
        const refused = await run(
          input,
          "codex",
          { ...limited, TXCRIPT_STREAM_MIN_BYTES: String(2 ** 40) },
          ["--from", from],
        );
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("past the limit");
      }
    });

  it("a file past the input limit converts when both sides stream (and only then)", async () => {
    const input = codexInputs[0] as string;
    const size = readFileSync(input).length;
    const limited = { TXCRIPT_MAX_INPUT_BYTES: String(size - 1) };
    const whole = await run(input, "codex", {});
    const streamed = await run(input, "codex", { ...limited, ...streamAlways });
    expect(streamed.code, streamed.stderr).toBe(0);
    expect(streamed.text).toBe(whole.text);
    // Control: below the threshold the whole path runs, and the limit refuses.
    const small = await run(input, "codex", {
      ...limited,
      TXCRIPT_STREAM_MIN_BYTES: String(size + 1),
    });
    expect(small.code).toBe(1);
    expect(small.stderr).toContain("past the limit");
    expect(small.text).toBeUndefined();
  });

  it("a directory's files past the input limit convert when both sides stream (and only then)", async () => {
    const batch = path.join(home.work, "batch");
    await fs.mkdir(batch, { recursive: true });
    const inputs = [codexInputs[0], claudeInputs[0]] as string[];
    for (const [index, input] of inputs.entries())
      await fs.copyFile(input, path.join(batch, `${index}-${path.basename(input)}`));
    const sizes = inputs.map((input) => readFileSync(input).length);
    const limited = { TXCRIPT_MAX_INPUT_BYTES: String(Math.min(...sizes) - 1) };
    const convert = async (env: Record<string, string>) => {
      const out = path.join(home.work, "batch-out");
      await fs.rm(out, { recursive: true, force: true });
      const result = await txcript(home, ["convert", batch, "--to", "codex", "--out-dir", out], {
        env,
      });
      const files: Record<string, string> = {};
      for (const file of existsSync(out) ? await listFiles(out) : [])
        files[file] = readFileSync(path.join(out, file), "utf8");
      return { code: result.code, stderr: result.stderr, files };
    };
    const whole = await convert({});
    expect(whole.code, whole.stderr).toBe(0);
    expect(Object.keys(whole.files)).toHaveLength(2);
    const streamed = await convert({ ...limited, ...streamAlways });
    expect(streamed.code, streamed.stderr).toBe(0);
    expect(streamed.files).toEqual(whole.files);
    // Control: below the threshold each file is read whole, and the limit refuses both.
    const small = await convert({
      ...limited,
      TXCRIPT_STREAM_MIN_BYTES: String(Math.max(...sizes) + 1),
    });
    expect(small.code).toBe(1);
    expect(small.stderr.match(/past the limit/g)).toHaveLength(2);
    expect(small.files).toEqual({});
  });

  it("past the limit, a pair that cannot stream is refused saying why", async () => {
    const input = codexInputs[0] as string;
    const size = readFileSync(input).length;
    const env = { TXCRIPT_MAX_INPUT_BYTES: String(size - 1), ...streamAlways };
    const cases: [string, string[], string][] = [
      ["opencode", [], "cannot stream: opencode is written from the whole session"],
      ["opencode", ["--redact"], "cannot stream: opencode is written from the whole session"],
    ];
    for (const [to, extra, why] of cases) {
      const result = await run(input, to, env, extra);
      expect(result.code, to).toBe(1);
      expect(result.stderr).toMatch(/^txcript: [^\n]+\n$/);
      expect(result.stderr).toContain(`file is ${size} bytes, past the limit of ${size - 1}`);
      expect(result.stderr).toContain(why);
      expect(result.text).toBeUndefined();
    }
    const common = path.join(fixturesRoot, "opencode/tool-calls.common.json");
    const commonSize = readFileSync(common).length;
    const refused = await run(
      common,
      "codex",
      { TXCRIPT_MAX_INPUT_BYTES: String(commonSize - 1), ...streamAlways },
      ["--from", "common"],
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("cannot stream: common is read as one document");
  });

  it("--redact streams past the input limit: the whole path's output, summary and report, no secret left", async () => {
    for (const source of [
      path.join(fixturesRoot, "claude-code/compaction.jsonl"),
      path.join(fixturesRoot, "codex/compacted.jsonl"),
    ]) {
      const input = await withSecrets(source);
      const limited = { TXCRIPT_MAX_INPUT_BYTES: String(readFileSync(input).length - 1) };
      const report = path.join(home.work, "report.json");
      const redacted = async (env: Record<string, string>, extra: string[]) => {
        const result = await run(input, "claude_code", env, [
          "--redact",
          "--redact-report",
          "report.json",
          ...extra,
        ]);
        const written = existsSync(report) ? readFileSync(report, "utf8") : undefined;
        await fs.rm(report, { force: true });
        return { ...result, report: written };
      };
      for (const extra of [[], ["--json"]]) {
        const whole = await redacted({}, extra);
        expect(whole.code, whole.stderr).toBe(0);
        expect(JSON.parse(whole.report as string).total).toBeGreaterThanOrEqual(2);
        const streamed = await redacted({ ...limited, ...streamAlways }, extra);
        expect(streamed, `${source} ${extra.join(" ")}`).toEqual(whole);
        expect(streamed.text).not.toContain(fakeToken);
      }
      // Control: the secrets were there to find.
      const plain = await run(input, "claude_code", { ...limited, ...streamAlways });
      expect(plain.text).toContain(fakeToken);
    }
  });

  it("a refused input is refused as the whole path refuses it, and nothing is written", async () => {
    const bad = path.join(home.work, "bad.jsonl");
    await fs.writeFile(bad, '{"type":"response_item","payload":{}}\n');
    const whole = await run(bad, "codex", {}, ["--from", "codex"]);
    const streamed = await run(bad, "codex", streamAlways, ["--from", "codex"]);
    expect(whole.code).toBe(1);
    expect(streamed).toEqual(whole);
  });
});

/** Everything one `continue` leaves: its output, and every file under the home (its root made "<root>"). */
async function continued(
  input: string,
  target: string,
  env: Record<string, string>,
  extra: readonly string[] = [],
) {
  const fresh = await makeHome();
  try {
    const result = await txcript(
      fresh,
      ["continue", input, "--with", target, "--no-resume", "--json", ...extra],
      { env },
    );
    // The root, and the root as Claude Code names a project directory after it.
    const normal = (text: string) =>
      text.replaceAll(fresh.root, "<root>").replaceAll(fresh.root.replaceAll("/", "-"), "<root>");
    const files: Record<string, string> = {};
    for (const file of await listFiles(fresh.root))
      files[normal(file)] = normal(readFileSync(path.join(fresh.root, file), "utf8"));
    return {
      code: result.code,
      stdout: normal(result.stdout),
      stderr: normal(result.stderr),
      files,
    };
  } finally {
    await removeHome(fresh);
  }
}

describe("continue, streamed", () => {
  const compacted = [
    path.join(fixturesRoot, "claude-code/compaction.jsonl"),
    path.join(fixturesRoot, "claude-code/compaction-missing-parent.jsonl"),
    path.join(fixturesRoot, "codex/compacted.jsonl"),
  ];
  it("from the last compaction: the whole path's session, archive, notes and result", async () => {
    for (const input of compacted)
      for (const target of ["codex", "claude_code", "pi"]) {
        const whole = await continued(input, target, {});
        const streamed = await continued(input, target, streamAlways);
        expect(whole.code, `${input} → ${target}: ${whole.stderr}`).toBe(0);
        // The archive is there: the left-out part was archived.
        expect(
          Object.keys(whole.files).some((file) => file.endsWith("transcript.common.json")),
        ).toBe(true);
        expect(streamed, `${input} → ${target}`).toEqual(whole);
      }
  });

  // Sessions with no compaction, and --full: the copy starts at the first
  // message, is fitted in two passes, and is archived only when cut.
  const uncompacted = [
    path.join(fixturesRoot, "claude-code/thinking.jsonl"),
    path.join(fixturesRoot, "claude-code/split-messages.jsonl"),
    path.join(fixturesRoot, "codex/paginated-0.171.jsonl"),
    ...claudeInputs.filter((file) => file.startsWith(realRoot)).slice(0, 1),
  ];
  it("from the first message (--full, or no compaction), fitted or not: the whole path's session, archive, notes and result", async () => {
    let archived = 0;
    let plain = 0;
    let failed = 0;
    for (const [input, extra] of [
      ...compacted.map((file) => [file, ["--full"]] as const),
      ...compacted.map((file) => [file, ["--full", "--budget", "200"]] as const),
      ...uncompacted.map((file) => [file, []] as const),
      ...uncompacted.map((file) => [file, ["--budget", "200"]] as const),
      ...uncompacted.map((file) => [file, ["--budget", "130"]] as const),
    ])
      for (const target of ["codex", "claude_code"]) {
        const whole = await continued(input, target, {}, extra);
        const streamed = await continued(input, target, streamAlways, extra);
        const what = `${input} ${extra.join(" ")} → ${target}`;
        expect(streamed, what).toEqual(whole);
        if (whole.code !== 0) {
          failed += 1;
          continue;
        }
        if (Object.keys(whole.files).some((file) => file.endsWith("transcript.common.json")))
          archived += 1;
        else plain += 1;
      }
    // Both kinds of copy were compared: ones that cut (and archive) and ones that do not.
    expect(archived).toBeGreaterThanOrEqual(5);
    expect(plain).toBeGreaterThanOrEqual(5);
    // A copy that does not fit is refused the same way on both paths (and leaves nothing behind).
    expect(failed).toBeGreaterThanOrEqual(1);
  });

  it("with --redact (and past the input limit): the whole path's session, archive and report, no secret left", async () => {
    for (const source of compacted.slice(0, 1).concat(compacted.slice(2))) {
      const input = await withSecrets(source);
      const limited = { TXCRIPT_MAX_INPUT_BYTES: String(readFileSync(input).length - 1) };
      for (const target of ["codex", "claude_code"])
        for (const extra of [
          ["--redact-report", "report.json"],
          ["--redact", "--full"],
        ]) {
          const whole = await continued(input, target, {}, extra);
          expect(whole.code, `${input} → ${target}: ${whole.stderr}`).toBe(0);
          const streamed = await continued(input, target, { ...limited, ...streamAlways }, extra);
          expect(streamed, `${input} → ${target} ${extra.join(" ")}`).toEqual(whole);
          const files = Object.entries(streamed.files);
          expect(files.some(([file]) => file.endsWith("report.json"))).toBe(
            extra[0] !== "--redact",
          );
          for (const [file, text] of files) expect(text, file).not.toContain(fakeToken);
        }
    }
  });

  it("past the input limit, streams from the last compaction, with --full and a range", async () => {
    const input = compacted[2] as string;
    const size = readFileSync(input).length;
    const env = { ...streamAlways, TXCRIPT_MAX_INPUT_BYTES: String(size - 1) };
    for (const target of ["claude_code", "pi"]) {
      const streamed = await continued(input, target, env);
      expect(streamed.code, `${target}: ${streamed.stderr}`).toBe(0);
      expect(streamed, target).toEqual(await continued(input, target, {}));
    }
    for (const args of [["--full"], ["--full", "--budget", "200"], ["--from", "codex"]]) {
      const result = await continued(input, "claude_code", env, args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      // --full replays everything, so nothing is left out and nothing archived; from the compaction, the rest is.
      const archive = Object.keys(result.files).some((file) =>
        file.endsWith("transcript.common.json"),
      );
      expect(archive, args.join(" ")).toBe(args.length !== 1 || args[0] !== "--full");
    }
    // Control: below the stream threshold the whole path runs, and the limit refuses --full.
    const whole = await txcript(
      home,
      ["continue", input, "--with", "claude_code", "--no-resume", "--full"],
      { env: { TXCRIPT_MAX_INPUT_BYTES: String(size - 1) } },
    );
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain("TXCRIPT_MAX_INPUT_BYTES");
    const ranged = await continued(`${input}#2-`, "claude_code", env);
    expect(ranged.code, ranged.stderr).toBe(0);
    expect(ranged).toEqual(await continued(`${input}#2-`, "claude_code", {}));
  });

  it("a range: the whole path's session, archive, notes and result, and its refusals", async () => {
    const outcomes = { copied: 0, archived: 0, refused: 0, outside: 0 };
    const cases: [string, string, string[]][] = [];
    for (const input of [...compacted, ...uncompacted.slice(0, 2)])
      for (const suffix of ["#2-", "#1-3", "#-4", "#3", "#2-999"]) cases.push([input, suffix, []]);
    for (const input of [compacted[0], uncompacted[0]] as string[])
      for (const extra of [
        ["--budget", "200"],
        ["--full", "--budget", "150"],
      ])
        cases.push([input, "#2-", extra]);
    for (const [input, suffix, extra] of cases) {
      const whole = await continued(`${input}${suffix}`, "codex", {}, extra);
      // Past the input limit: only the streaming path can read it.
      const limited = { TXCRIPT_MAX_INPUT_BYTES: String(readFileSync(input).length - 1) };
      const streamed = await continued(
        `${input}${suffix}`,
        "codex",
        {
          ...streamAlways,
          ...limited,
        },
        extra,
      );
      expect(streamed, `${input}${suffix} ${extra.join(" ")}`).toEqual(whole);
      if (whole.code === 0) {
        outcomes.copied += 1;
        if (Object.keys(whole.files).some((file) => file.endsWith("transcript.common.json")))
          outcomes.archived += 1;
      } else if (whole.stderr.includes("outside the session")) outcomes.outside += 1;
      else if (whole.stderr.includes("would cut a tool call")) outcomes.refused += 1;
    }
    // Every kind of outcome was compared.
    expect(outcomes.copied).toBeGreaterThanOrEqual(8);
    expect(outcomes.archived).toBeGreaterThanOrEqual(1);
    expect(outcomes.refused).toBeGreaterThanOrEqual(1);
    expect(outcomes.outside).toBeGreaterThanOrEqual(1);
  });
});
