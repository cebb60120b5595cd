// docs/cli.md agrees with the bin: every command (and the main help) has a
// block in the doc equal to its `--help` output, every option and
// environment variable the help names is documented, and every exit code.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, makeHome, removeHome, repoRoot, txcript } from "./e2e.js";

const commands = [
  "list",
  "view",
  "convert",
  "export",
  "continue",
  "fixtures",
  "schema",
  "search",
  "mcp",
  "completion",
];
const doc = readFileSync(path.join(repoRoot, "docs/cli.md"), "utf8");

function block(command: string): string | undefined {
  const pattern = new RegExp(
    `<!-- txcript-help:${command} -->\\n\`\`\`text\\n([\\s\\S]*?)\`\`\`\\n<!-- /txcript-help -->`,
  );
  return pattern.exec(doc)?.[1];
}

async function help(command: string): Promise<string> {
  const home = await makeHome();
  try {
    const result = await txcript(home, command === "main" ? ["--help"] : [command, "--help"]);
    expect(result.code).toBe(0);
    return result.stdout;
  } finally {
    await removeHome(home);
  }
}

beforeAll(assertBuilt);

describe("docs/cli.md agrees with txcript --help", () => {
  for (const command of ["main", ...commands]) {
    it(`quotes \`${command === "main" ? "txcript" : `txcript ${command}`} --help\` verbatim`, async () => {
      expect(block(command), `docs/cli.md has no help block for ${command}`).toBeDefined();
      expect(block(command)).toBe(await help(command));
    });
  }
  it("has a section per command", () => {
    for (const command of commands)
      expect(doc).toMatch(new RegExp(`^## \`txcript ${command}`, "m"));
  });
  it("documents every option outside the quoted help too", async () => {
    const prose = doc.replace(/```text\n[\s\S]*?```/g, "");
    for (const command of commands) {
      for (const option of (await help(command)).matchAll(/^ {2}(?:-\w, )? *(--[\w-]+)/gm)) {
        expect(prose, `${command} ${option[1]}`).toContain(`\`${option[1]}`);
      }
    }
  });
  it("documents every environment variable and exit code", async () => {
    const main = await help("main");
    const prose = doc.replace(/```text\n[\s\S]*?```/g, "");
    const environment = main.split("Environment:\n")[1]?.split("\n\n")[0] ?? "";
    const variables = [...environment.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(4);
    for (const variable of variables) expect(prose).toContain(`\`${variable}\``);
    for (const code of ["0", "1", "2"])
      expect(prose).toMatch(new RegExp(`^\\| +\`${code}\` +\\|`, "m"));
  });
});
