// The OpenCode probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer into a fresh temporary
// HOME/XDG tree, run the pinned `opencode import <file>` in a project
// directory, then `opencode export <id>`; the session passes when import
// exits 0 and the export gives back our messages and parts (compared through
// Common, the cwd being the directory import ran in).
import { promises as fs } from "node:fs";
import path from "node:path";
import { jsonEqual, type Transcript } from "@txcript/core";
import { opencodeCodec } from "../opencode-codec.js";
import { opencodeBin, runOpencode, sandbox } from "./opencode-sandbox.js";

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export const probe = {
  programs: ["opencode"],
  check:
    "`opencode import <file>` exits 0 and `opencode export <id>` gives back the written messages and parts (through Common)",
  async run(transcript: Transcript, program: string): Promise<ProbeResult> {
    if (program !== "opencode" || opencodeBin === undefined)
      return { ok: false, detail: `${program} is not installed` };
    const box = await sandbox();
    try {
      const native = opencodeCodec.fromCommon(transcript);
      const file = path.join(box.root, "session.json");
      await fs.writeFile(file, opencodeCodec.serialize(native));
      const imported = await runOpencode(box, ["import", file]);
      if (imported.status !== 0)
        return {
          ok: false,
          detail: `import exited ${imported.status}: ${imported.stderr.trim().slice(-300)}`,
        };
      const id = String(native.document.info.id);
      const exported = await runOpencode(box, ["export", id]);
      if (exported.status !== 0)
        return {
          ok: false,
          detail: `export exited ${exported.status}: ${exported.stderr.trim().slice(-300)}`,
        };
      const ours = opencodeCodec.toCommon(native);
      const expected = { ...ours, meta: { ...ours.meta, cwd: box.project } };
      const back = opencodeCodec.toCommon(opencodeCodec.parse(exported.stdout));
      return jsonEqual(back, expected)
        ? { ok: true, detail: "imported and exported back" }
        : { ok: false, detail: "the export differs from what was written (through Common)" };
    } finally {
      await box.dispose();
    }
  },
};
