import { describeCodecLaws } from "@txcript/core/testing";
import { crushCodec } from "./crush-codec.js";
import { crushProject } from "./crush-project.js";

describeCodecLaws({ codec: crushCodec, project: (transcript) => crushProject(transcript) });
