import { describeCodecLaws } from "@txcript/core/testing";
import { opencodeCodec } from "./opencode-codec.js";
import { opencodeProject } from "./opencode-project.js";
import { fixtureSamples } from "./test-support.js";

describeCodecLaws({ codec: opencodeCodec, project: opencodeProject, samples: fixtureSamples });
