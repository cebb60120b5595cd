// Amp as a harness: thread documents, the local threads store, a reader and a
// writer that stream message by message (amp-stream-read.ts,
// amp-stream-write.ts), and why `continue` into Amp is refused.
import type { HarnessDefinition } from "@txcript/core";
import { ampCodec } from "./amp-codec.js";
import { ampProject } from "./amp-project.js";
import type { AmpThread } from "./amp-schema.js";
import { AmpStore } from "./amp-store.js";
import { ampReadStream } from "./amp-stream-read.js";
import { ampWriteHeadLast, ampWriteStream } from "./amp-stream-write.js";

export const ampHarness: HarnessDefinition<AmpThread> = {
  id: "amp",
  displayName: "Amp thread",
  aliases: ["amp-thread", "sourcegraph-amp"],
  codec: ampCodec,
  extension: ".json",
  project: ampProject,
  readStream: ampReadStream,
  writeStream: ampWriteStream,
  writeStreamHeadLast: ampWriteHeadLast,
  environment: [
    ["AMP_THREADS_DIR", "the Amp threads directory (default $XDG_DATA_HOME/amp/threads)"],
    ["XDG_DATA_HOME", "base of the default Amp threads directory (default ~/.local/share)"],
  ],
  store: (environment, root) =>
    new AmpStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  continueRefusal: {
    reason:
      "current Amp builds are server-authoritative: they neither read nor write the local threads directory, so a thread file written there would never be seen",
    instead:
      "give Amp the conversation as context instead: `txcript export <ref>` writes it as Common JSON, `txcript view <ref>` as text",
  },
};
