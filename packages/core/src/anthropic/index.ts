// @txcript/core/anthropic: the Anthropic Messages mapping every harness
// that stores API messages shares — content blocks both ways (with the
// tool_result content rule), usage (counted once per split message), stop
// reasons and the merge of a message written as several lines.
export type {
  AnthropicDrop,
  AnthropicDropReason,
  AnthropicReadOptions,
  AnthropicWriteOptions,
} from "./blocks.js";
export {
  anthropicBlockToCommon,
  anthropicContentToCommon,
  anthropicThinkingOf,
  commonBlockToAnthropic,
  isAnthropicToolResultContent,
  toolResultContentToAnthropic,
} from "./blocks.js";
export type { AnthropicMessagePart } from "./messages.js";
export {
  AnthropicSplitMessages,
  anthropicStopReasons,
  anthropicStopReasonToCommon,
  isAnthropicStopReason,
  mergeAnthropicPart,
} from "./messages.js";
export type { AnthropicUsageRead } from "./usage.js";
export {
  anthropicUsageKeys,
  anthropicUsageToCommon,
  commonUsageToAnthropic,
  largestUsage,
  usageTotal,
} from "./usage.js";
