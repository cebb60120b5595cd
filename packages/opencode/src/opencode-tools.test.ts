import { describe, expect, it } from "vitest";
import { opencodeSpelling, opencodeToolToCommon } from "./opencode-tools.js";

describe("OpenCode's tool dialect", () => {
  it("maps built-in tools onto canonical ones when every argument has a counterpart", () => {
    expect(opencodeToolToCommon("read", { filePath: "/a", offset: 2, limit: 5 })).toEqual({
      name: "Read",
      input: { file_path: "/a", offset: 2, limit: 5 },
    });
    expect(
      opencodeToolToCommon("edit", {
        filePath: "/a",
        oldString: "x",
        newString: "y",
        replaceAll: true,
      }),
    ).toEqual({
      name: "Edit",
      input: { file_path: "/a", old_string: "x", new_string: "y", replace_all: true },
    });
    expect(opencodeToolToCommon("grep", { pattern: "p", include: "*.ts" })).toEqual({
      name: "Grep",
      input: { pattern: "p", glob: "*.ts" },
    });
    expect(
      opencodeToolToCommon("bash", { command: "ls", description: "d", timeout: 5, workdir: "/w" }),
    ).toMatchObject({ name: "Bash" });
  });

  it("keeps a call Raw under OpenCode's name when an argument has no counterpart or does not fit", () => {
    const fetch = { url: "https://x", format: "markdown" };
    expect(opencodeToolToCommon("webfetch", fetch)).toEqual({
      name: "Raw",
      toolName: "webfetch",
      input: fetch,
    });
    expect(opencodeToolToCommon("read", { filePath: 3 })).toEqual({
      name: "Raw",
      toolName: "read",
      input: { filePath: 3 },
    });
    expect(opencodeToolToCommon("read", { file_path: "/a" })).toEqual({
      name: "Raw",
      toolName: "read",
      input: { file_path: "/a" },
    });
    expect(opencodeToolToCommon("Read", { filePath: "/a" })).toEqual({
      name: "Raw",
      toolName: "Read",
      input: { filePath: "/a" },
    });
    expect(opencodeToolToCommon("zread_read_file", { file_path: "x" })).toMatchObject({
      name: "Raw",
      toolName: "zread_read_file",
    });
  });

  it("spells canonical tools back exactly, or says it cannot", () => {
    const read = opencodeToolToCommon("read", { filePath: "/a", limit: 5 });
    expect(opencodeSpelling(read)).toEqual({ name: "read", input: { filePath: "/a", limit: 5 } });
    expect(
      opencodeSpelling({ name: "Bash", input: { command: "ls", run_in_background: true } }),
    ).toBeUndefined();
    expect(
      opencodeSpelling({ name: "MultiEdit", input: { file_path: "/a", edits: [] } }),
    ).toBeUndefined();
    expect(opencodeSpelling({ name: "Raw", toolName: "read", input: {} })).toBeUndefined();
  });
});
