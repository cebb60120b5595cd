// Every `--json` result validates against the checked-in schema
// (docs/schema/cli-result.schema.json, generated from src/result-schema.ts,
// which a test keeps current): convert (one file and a batch), export,
// continue and fixtures.
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { CommandResultSchema, resultJsonSchema } from "../src/result-schema.js";
import { fixturesRoot, type Home, repoRoot, txcript, useHome } from "./e2e.js";

const schemaFile = path.join(repoRoot, "docs/schema/cli-result.schema.json");
const checkedIn = JSON.parse(readFileSync(schemaFile, "utf8"));
const validate = new Ajv2020({ strict: false }).compile(checkedIn);

let home: Home;
useHome((made) => {
  home = made;
});

const amp = path.join(fixturesRoot, "amp", "legacy-thread.json");

function valid(stdout: string): Record<string, unknown> {
  const value = JSON.parse(stdout);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  expect(CommandResultSchema.safeParse(value).success).toBe(true);
  return value;
}

describe("--json results", () => {
  it("the checked-in schema is current (regenerate: pnpm --filter @txcript/cli schema:write)", () => {
    expect(checkedIn).toEqual(resultJsonSchema());
  });

  it("convert: input, output and every loss with leg, kind and count", async () => {
    const out = path.join(home.work, "out.jsonl");
    const result = await txcript(home, [
      "convert",
      amp,
      "--to",
      "claude_code",
      "-o",
      out,
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const value = valid(result.stdout);
    expect(value).toMatchObject({
      command: "convert",
      input: { harness: "amp" },
      outputs: [{ harness: "claude_code", path: out }],
    });
    const losses = value.losses as { leg: string; kind: string; count: number }[];
    expect(losses.some((loss) => loss.leg === "read")).toBe(true);
    expect(losses.some((loss) => loss.kind === "bookkeeping")).toBe(true);
  });

  it("convert needs -o with --json (stdout carries the result)", async () => {
    const result = await txcript(home, ["convert", amp, "--to", "claude_code", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs -o FILE/);
  });

  it("a batch convert names each file, its losses and its failures", async () => {
    const input = path.join(home.work, "in");
    await fs.mkdir(input);
    await fs.copyFile(amp, path.join(input, "thread.json"));
    await fs.writeFile(path.join(input, "broken.json"), "{");
    const result = await txcript(home, [
      "convert",
      input,
      "--to",
      "common",
      "--out-dir",
      path.join(home.work, "out"),
      "--json",
    ]);
    expect(result.code).toBe(1);
    const value = valid(result.stdout);
    expect((value.outputs as { source: string }[]).map((output) => output.source)).toEqual([
      "thread.json",
    ]);
    expect(
      (value.failures as { file: string; code: string }[]).map((failure) => [
        failure.file,
        failure.code,
      ]),
    ).toEqual([["broken.json", "UNKNOWN_FORMAT"]]);
    expect((value.losses as { file: string }[]).every((loss) => loss.file === "thread.json")).toBe(
      true,
    );
  });

  it("export, continue and fixtures", async () => {
    const exported = await txcript(home, [
      "export",
      amp,
      "-o",
      path.join(home.work, "x.common.json"),
      "--json",
    ]);
    expect(valid(exported.stdout)).toMatchObject({ command: "export" });
    const continued = await txcript(home, [
      "continue",
      amp,
      "--with",
      "claude_code",
      "--no-resume",
      "--json",
    ]);
    expect(continued.code, continued.stderr).toBe(0);
    const value = valid(continued.stdout);
    expect(value).toMatchObject({
      command: "continue",
      resumed: { launched: false, status: null },
    });
    expect((value.resumeCommand as string[])[1]).toMatch(/^--resume=[0-9a-f-]{36}$/);
    const fixtures = await txcript(home, [
      "fixtures",
      "--harness",
      "pi",
      "--count",
      "2",
      "--seed",
      "1",
      "--out-dir",
      path.join(home.work, "fx"),
      "--json",
    ]);
    expect(fixtures.code, fixtures.stderr).toBe(0);
    expect((valid(fixtures.stdout).outputs as unknown[]).length).toBe(2);
  });
});
