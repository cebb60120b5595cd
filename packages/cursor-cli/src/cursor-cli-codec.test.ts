import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { cursorCliCodec } from "./cursor-cli-codec.js";
import { cursorCliProject } from "./cursor-cli-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtures = path.join(repoRoot, "fixtures/cursor-cli");

describeCodecLaws({
  codec: cursorCliCodec,
  project: (transcript) => cursorCliProject(transcript),
  // The chat documents read from the fixture stores (fixtures/cursor-cli/README.md).
  samples: () =>
    readdirSync(fixtures)
      .filter((name) => name.endsWith(".cursor-chat.json"))
      .sort()
      .map((name) => ({
        name: `fixture ${name}`,
        text: readFileSync(path.join(fixtures, name), "utf8"),
      })),
});
