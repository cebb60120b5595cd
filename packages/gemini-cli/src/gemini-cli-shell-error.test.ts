// A failed shell command's result is written as its output
// (gemini_cli.shell-error), as Gemini CLI records a command that ran and
// failed. Gemini CLI masks bulky older tool outputs before it sends them,
// and the preview of a masked shell response is taken from its `output`
// only: an `{error}` one is sent as a bare file path. The unit tests read
// the written responses; the pinned Gemini CLI, offline, then sends the
// failed command's first lines in the masked preview, and the control (the
// same file with that response as `{error}`) does not.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Message, Transcript, Warning } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { GeminiCliStore } from "./gemini-cli-store.js";
import {
  errorReportContext,
  geminiBin,
  geminiVersion,
  runGemini,
  writeSettings,
} from "./test-support/interop.js";

const at = "2026-04-23T12:00:00.000Z";
const marker = "FAILED-HEAD-MARKER error TS2307: cannot find module";
/** Lines enough that Gemini CLI's preview (ten first and ten last lines) is shorter than the output. */
const lines = (first: string) =>
  [first, ...Array.from({ length: 3000 }, (_, index) => `line ${index} of the build log`)].join(
    "\n",
  );

function turn(id: string, output: string, isError: boolean): Message[] {
  return [
    {
      role: "assistant",
      content: [
        { type: "tool_use", id, tool: { name: "Bash", input: { command: "npm run build" } } },
      ],
      timestamp: at,
    },
    {
      role: "user",
      content: [{ type: "tool_result", toolUseId: id, content: output, isError }],
      timestamp: at,
    },
  ];
}

const transcript: Transcript = {
  meta: { id: "shell-error-test", timestamp: at, cwd: "/tmp/shell-error" },
  messages: [
    { role: "user", content: [{ type: "text", text: "build it" }], timestamp: at },
    ...turn("call_failed", lines(marker), true),
    ...Array.from({ length: 8 }, (_, index) =>
      turn(`call_${index}`, lines(`ok ${index}`), false),
    ).flat(),
    { role: "assistant", content: [{ type: "text", text: "Built." }], timestamp: at },
  ],
};

/** Each functionResponse written: id and response keys. */
function responses(source: Transcript, warnings: Warning[] = []): string[] {
  const session = geminiCliCodec.fromCommon(source, {
    onWarning: (warning) => warnings.push(warning),
  });
  const text = geminiCliCodec.serialize(session);
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .flatMap((record) => (Array.isArray(record.content) ? record.content : []))
    .filter((part: { functionResponse?: unknown }) => part.functionResponse !== undefined)
    .map(
      (part: { functionResponse: { id: string; response: object } }) =>
        `${part.functionResponse.id} ${Object.keys(part.functionResponse.response).join(",")}`,
    );
}

describe("gemini_cli.shell-error", () => {
  it("writes a failed shell command's result as its output, with a warning", () => {
    const warnings: Warning[] = [];
    expect(responses(transcript, warnings).slice(0, 2)).toEqual([
      "call_failed output",
      "call_0 output",
    ]);
    expect(warnings.filter((warning) => warning.code === "gemini_cli.shell-error")).toHaveLength(1);
  });

  it("keeps {error} for another tool's failed result", () => {
    const read: Transcript = {
      ...transcript,
      messages: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "r1", tool: { name: "Read", input: { file_path: "/x" } } },
          ],
          timestamp: at,
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "r1", content: "no such file", isError: true },
          ],
          timestamp: at,
        },
      ],
    };
    expect(responses(read)).toEqual(["r1 error"]);
  });
});

const found = geminiBin();
const skip = "skip" in found ? found.skip : undefined;
const bin = "bin" in found ? found.bin : "gemini";
if (skip !== undefined) console.warn(`SKIPPED gemini_cli.shell-error real program: ${skip}`);

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-shell-error-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

/** Save the transcript, let `edit` change the file, resume it offline: the failed call's sent response. */
async function sentResponse(label: string, edit: (text: string) => string): Promise<string> {
  const home = path.join(temporary, label);
  const project = path.join(home, "project");
  await fs.mkdir(project, { recursive: true });
  writeSettings(home, false);
  const store = new GeminiCliStore({ root: path.join(home, ".gemini") });
  const moved = { ...transcript, meta: { ...transcript.meta, cwd: project } };
  const saved = await store.save(geminiCliCodec.fromCommon(moved));
  await fs.writeFile(saved.path, edit(await fs.readFile(saved.path, "utf8")));
  const tmpdir = path.join(home, "tmp");
  const run = runGemini(
    bin,
    home,
    project,
    ["-p", "continue", "--resume", saved.id, "-o", "json", "--skip-trust"],
    tmpdir,
  );
  expect(run.output).not.toContain("Invalid session identifier");
  const sent = JSON.stringify(errorReportContext(tmpdir) ?? []);
  const contents = JSON.parse(sent) as { parts?: { functionResponse?: { id: string } }[] }[];
  const part = contents
    .flatMap((content) => content.parts ?? [])
    .find((item) => item.functionResponse?.id === "call_failed");
  expect(part, "the failed call's response is not in the history sent").toBeDefined();
  return JSON.stringify(part);
}

describe.skipIf(skip !== undefined)(
  `gemini ${geminiVersion} masks the failed command's output with its first lines`,
  () => {
    it("the masked preview holds the failure's first line", async () => {
      const sent = await sentResponse("ours", (text) => text);
      expect(sent).toContain("tool_output_masked");
      expect(sent).toContain(marker);
    }, 120_000);

    it("control: written as {error}, the masked response holds only a file path", async () => {
      const sent = await sentResponse("control", (text) =>
        text
          .split("\n")
          .map((line) =>
            line.includes('"id":"call_failed","name":"run_shell_command","response":{"output"')
              ? line.replace(
                  '"id":"call_failed","name":"run_shell_command","response":{"output"',
                  '"id":"call_failed","name":"run_shell_command","response":{"error"',
                )
              : line,
          )
          .join("\n"),
      );
      expect(sent).toContain("tool_output_masked");
      expect(sent).not.toContain(marker);
    }, 120_000);
  },
);
