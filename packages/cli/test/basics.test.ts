// End-to-end: the commands that need no harness store — version, help,
// schema, export/view/convert of Common documents, ranges, output safety,
// error formatting, exit codes and colour — against the built bin.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { commonJsonSchema } from "@txcript/core";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { type Home, hasScript, listFiles, txcript, txcriptOnTty, useHome } from "./e2e.js";
import { sampleCommonText, sampleTranscript } from "./sample.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

async function writeSample(name = "sample.common.json"): Promise<string> {
  const file = path.join(home.work, name);
  await fs.writeFile(file, sampleCommonText());
  return file;
}

describe("txcript --version and --help", () => {
  it("prints the package version", async () => {
    const result = await txcript(home, ["--version"]);
    expect(result).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: "" });
    expect((await txcript(home, ["-V"])).stdout).toBe(`${packageJson.version}\n`);
  });
  it("prints the main help on --help (exit 0) and on no arguments (exit 2)", async () => {
    const help = await txcript(home, ["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["list", "view", "convert", "export", "continue", "fixtures", "schema"])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    const bare = await txcript(home, []);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toBe(help.stdout);
  });
  it("prints each command's help with examples", async () => {
    for (const command of ["list", "view", "convert", "export", "continue", "fixtures", "schema"]) {
      const result = await txcript(home, [command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: txcript ${command}`));
      expect(result.stdout).toMatch(/\nExamples:\n {2}txcript /);
      expect((await txcript(home, ["help", command])).stdout).toBe(result.stdout);
    }
  });
});

describe("usage errors exit 2 with one line on stderr", () => {
  it("refuses an unknown command", async () => {
    const result = await txcript(home, ["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('txcript: unknown command "frobnicate" (see txcript --help)\n');
    expect(result.stdout).toBe("");
  });
  it("refuses an unknown option, naming the command's help", async () => {
    const result = await txcript(home, ["schema", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^txcript: .*--bogus.* \(see txcript schema --help\)\n$/);
  });
  it("refuses a missing argument and a missing required option", async () => {
    const missingRef = await txcript(home, ["view"]);
    expect(missingRef.code).toBe(2);
    expect(missingRef.stderr).toMatch(/^txcript: missing argument: txcript view/);
    const file = await writeSample();
    const missingTo = await txcript(home, ["convert", file]);
    expect(missingTo.code).toBe(2);
    expect(missingTo.stderr).toBe("txcript: missing --to (see txcript convert --help)\n");
  });
  it("refuses an unknown harness, listing the known ones", async () => {
    const file = await writeSample();
    const result = await txcript(home, ["convert", file, "--to", "vim"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^txcript: unknown harness "vim" \(expected one of .*common/);
  });
  it("refuses an extra positional argument", async () => {
    const result = await txcript(home, ["schema", "extra"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unexpected argument "extra"/);
  });
});

describe("txcript schema", () => {
  it("prints the JSON Schema generated from core", async () => {
    const result = await txcript(home, ["schema"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(commonJsonSchema());
  });
});

describe("txcript export", () => {
  it("writes the Common document of a file to stdout", async () => {
    const file = await writeSample("in.json");
    const result = await txcript(home, ["export", file]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ format: "txcript.common/v2", ...sampleTranscript });
  });
  it("reads stdin given -", async () => {
    const result = await txcript(home, ["export", "-"], { stdin: sampleCommonText() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(sampleCommonText());
  });
  it("reads a version 1 Common document and writes version 2", async () => {
    const v1 = sampleCommonText().replace('"txcript.common/v2"', '"txcript.common/v1"');
    const result = await txcript(home, ["export", "-"], { stdin: v1 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(sampleCommonText());
  });
  it("exports a range that keeps calls with their results", async () => {
    const file = await writeSample();
    const result = await txcript(home, ["export", `${file}#2-4`]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).messages).toEqual(sampleTranscript.messages.slice(1, 4));
  });
  it("refuses a range that cuts a tool call from its result, naming the nearest valid range", async () => {
    const file = await writeSample();
    const output = path.join(home.work, "out.json");
    const cutsResult = await txcript(home, ["export", `${file}#1-2`, "-o", output]);
    expect(cutsResult.code).toBe(2);
    expect(cutsResult.stderr).toBe(
      "txcript: range #1-2 would cut a tool call from its result (the nearest valid range is #1-3)\n",
    );
    const cutsCall = await txcript(home, ["export", `${file}#3-`]);
    expect(cutsCall.code).toBe(2);
    expect(cutsCall.stderr).toMatch(/\(the nearest valid range is #2-5\)\n$/);
    expect(await listFiles(home.work)).toEqual(["sample.common.json"]);
  });
  it("refuses ordinals outside the session", async () => {
    const file = await writeSample();
    const result = await txcript(home, ["export", `${file}#9`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "txcript: range #9 is outside the session (valid ordinals are 1-5)\n",
    );
  });
  it("writes -o atomically and never clobbers without --force", async () => {
    const file = await writeSample();
    const output = path.join(home.work, "out", "export.json");
    const first = await txcript(home, ["export", file, "-o", output]);
    expect(first.code).toBe(0);
    expect(await fs.readFile(output, "utf8")).toBe(sampleCommonText());
    await fs.writeFile(output, "precious");
    const again = await txcript(home, ["export", file, "-o", output]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `txcript: ${output}: the target already exists (pass --force (or overwrite: true) to replace it)\n`,
    );
    expect(await fs.readFile(output, "utf8")).toBe("precious");
    const forced = await txcript(home, ["export", file, "-o", output, "--force"]);
    expect(forced.code).toBe(0);
    expect(await fs.readFile(output, "utf8")).toBe(sampleCommonText());
    expect(await listFiles(path.dirname(output))).toEqual(["export.json"]);
  });
});

describe("input errors exit 1 with file:line and no stack trace", () => {
  it("reports invalid JSON with its line", async () => {
    const file = path.join(home.work, "broken.json");
    await fs.writeFile(file, '{\n  "format": "txcript.common/v1",\n  "meta": {,\n}');
    const result = await txcript(home, ["export", file, "--from", "common"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^txcript: ${file}:3:\\d+: .+\\n$`));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
  it("prints the stack trace only with --debug", async () => {
    const file = path.join(home.work, "broken.json");
    await fs.writeFile(file, "{ nope");
    const plain = await txcript(home, ["export", file, "--from", "common"]);
    const debug = await txcript(home, ["export", file, "--from", "common", "--debug"]);
    expect(debug.code).toBe(plain.code);
    expect(debug.stderr.startsWith(plain.stderr)).toBe(true);
    expect(debug.stderr).toMatch(/\n\s+at /);
    expect(plain.stderr.split("\n")).toHaveLength(2);
    const early = await txcript(home, ["--debug", "export", file, "--from", "common"]);
    expect(early.code).toBe(plain.code);
    expect(early.stderr).toBe(debug.stderr);
    const fromEnvironment = await txcript(home, ["export", file, "--from", "common"], {
      env: { TXCRIPT_DEBUG: "1" },
    });
    expect(fromEnvironment.stderr).toBe(debug.stderr);
  });
  it("reports an unrecognized format with a hint to pass --from", async () => {
    const file = path.join(home.work, "notes.txt");
    await fs.writeFile(file, "just some notes\n");
    const result = await txcript(home, ["view", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^txcript: .*notes\.txt: cannot tell which harness wrote this input \(pass --from/,
    );
  });
  it("reports a ref that is neither a file nor a stored session", async () => {
    const result = await txcript(home, ["view", "no-such-session"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'txcript: no file or stored session matches "no-such-session" (`txcript list` shows the stored sessions)\n',
    );
  });
  it("reports an invalid Common document with its JSON path", async () => {
    const file = path.join(home.work, "bad.common.json");
    const document = JSON.parse(sampleCommonText());
    document.messages[2].role = "robot";
    await fs.writeFile(file, JSON.stringify(document));
    const result = await txcript(home, ["export", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not a valid Common document: .* at \$\.messages\[2\]\.role\n$/);
  });
});

describe("txcript view", () => {
  it("prints the numbered text, cut to a range, without colour off a terminal", async () => {
    const file = await writeSample();
    const whole = await txcript(home, ["view", file]);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toMatch(/^List the files · sample-0001 · /);
    expect(whole.stdout).toContain("#5 user");
    expect(whole.stdout).not.toContain("\u001b[");
    const ranged = await txcript(home, ["view", `${file}#2-3`]);
    expect(ranged.stdout).toContain("#2 assistant");
    expect(ranged.stdout).toContain("#3 user");
    expect(ranged.stdout).not.toContain("#1 user");
    expect(ranged.stdout).not.toContain("#4 assistant");
    const upTo = await txcript(home, ["view", `${file}#-1`]);
    expect(upTo.stdout).toContain("#1 user");
    expect(upTo.stdout).not.toContain("#2 ");
  });
  it.runIf(hasScript)("colours on a terminal, and not when NO_COLOR is set", async () => {
    const file = await writeSample();
    const coloured = await txcriptOnTty(home, ["view", file]);
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain("\u001b[1m#1 user");
    const plain = await txcriptOnTty(home, ["view", file], { NO_COLOR: "1" });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("#1 user");
    expect(plain.stdout).not.toContain("\u001b[");
  });
  it.runIf(hasScript)(
    "colours when FORCE_COLOR asks, even off a terminal; FORCE_COLOR=0 wins on one",
    async () => {
      const file = await writeSample();
      const forced = await txcript(home, ["view", file], {
        env: { FORCE_COLOR: "1", NO_COLOR: "1" },
      });
      expect(forced.stdout).toContain("\u001b[1m#1 user");
      const off = await txcriptOnTty(home, ["view", file], { FORCE_COLOR: "0" });
      expect(off.stdout).not.toContain("\u001b[");
    },
  );
  it.runIf(hasScript)(
    "shows a status line on a terminal while a single input past 50 MB is read",
    async () => {
      const big = path.join(home.work, "big.common.json");
      const text = `message ${"x".repeat(2 ** 20)}`;
      const messages = Array.from({ length: 52 }, () => ({
        role: "user",
        timestamp: "2026-01-01T00:00:00.000Z",
        content: [{ type: "text", text }],
      }));
      await fs.writeFile(
        big,
        JSON.stringify({
          format: "txcript.common/v2",
          meta: { id: "big", timestamp: "2026-01-01T00:00:00.000Z" },
          messages,
        }),
      );
      const onTty = await txcriptOnTty(home, [
        "convert",
        big,
        "--to",
        "claude_code",
        "-o",
        "big.jsonl",
      ]);
      expect(onTty.code, onTty.stdout).toBe(0);
      expect(onTty.stdout).toMatch(/reading \S*big\.common\.json \(5\d MB\)…/);
      const piped = await txcript(home, [
        "convert",
        big,
        "--to",
        "claude_code",
        "-o",
        "big2.jsonl",
      ]);
      expect(piped.stderr).not.toContain("reading ");
    },
  );
});

describe("continue refuses targets it cannot resume", () => {
  it("refuses common and stream_json (exit 2, nothing written)", async () => {
    const file = await writeSample();
    for (const target of ["common", "stream-json"]) {
      const result = await txcript(home, ["continue", file, "--with", target]);
      if (target === "stream-json" && result.stderr.includes("unknown harness")) continue;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^txcript: cannot continue in \w+: .*nothing was written \(/);
      expect(result.stdout).toBe("");
    }
    expect(await listFiles(home.root)).toEqual(["work/sample.common.json"]);
  });
});
