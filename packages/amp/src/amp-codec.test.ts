import { describeCodecLaws } from "@txcript/core/testing";
import { ampCodec } from "./amp-codec.js";
import { ampProject } from "./amp-project.js";
import { fixtureSamples } from "./test-support.js";

describeCodecLaws({ codec: ampCodec, project: ampProject, samples: fixtureSamples });
