// The OpenCode probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer into a fresh temporary
// HOME/XDG tree and run the pinned program's offline check (opencode-verify.ts,
// the one `txcript continue --verify` ships): `opencode import <file>` exits 0
// and `opencode export <id>` gives back our messages and parts (through
// Common, the cwd being the directory import ran in).
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { opencodeCodec } from "../opencode-codec.js";
import { importExportCheck } from "../opencode-verify.js";
import { opencodeBin, sandbox } from "./opencode-sandbox.js";

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
      const file = path.join(box.root, "written.json");
      await fs.writeFile(file, opencodeCodec.serialize(native));
      return await importExportCheck(opencodeBin, box, file);
    } finally {
      await box.dispose();
    }
  },
};
