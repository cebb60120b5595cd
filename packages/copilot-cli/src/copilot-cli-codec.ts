// The GitHub Copilot CLI session codec: event log text ⇄ its native body
// (lossless) ⇄ the Common model. Reading follows how the program replays an
// event log into model history; writing produces an events.jsonl that
// `copilot --resume=<id>` loads. Every loss is listed in `losses` and
// stated as code in copilotCliProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { type CopilotCliWriteOptions, commonToCopilotCli } from "./common-to-copilot-cli.js";
import { copilotCliLosses } from "./copilot-cli-losses.js";
import {
  type CopilotCliSession,
  harness,
  parseSession,
  serializeSession,
} from "./copilot-cli-schema.js";
import { copilotCliSniff } from "./copilot-cli-sniff.js";
import { type CopilotCliReadOptions, copilotCliToCommon } from "./copilot-cli-to-common.js";

export const copilotCliCodec: Codec<
  CopilotCliSession,
  CopilotCliReadOptions,
  CopilotCliWriteOptions
> = {
  id: harness,
  displayName: "GitHub Copilot CLI session",
  losses: copilotCliLosses,
  detect: copilotCliSniff,
  parse(text, options: ParseOptions = {}) {
    return parseSession(text, options);
  },
  serialize(session) {
    return serializeSession(session);
  },
  toCommon(session, options) {
    return copilotCliToCommon(session, options);
  },
  fromCommon(transcript, options) {
    return commonToCopilotCli(transcript, options);
  },
};
