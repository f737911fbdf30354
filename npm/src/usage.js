// Token counts from a reply's usage, whichever SDK spelled them (`inputTokens`,
// `input_tokens`, `prompt_tokens`, …): what the repair loop's budget and its spans read.

const number = (...values) => values.find((value) => typeof value === "number");

/** `{ input, output, total }`; a count the usage does not give is undefined (total: 0). */
export function usageCounts(usage) {
  if (!usage || typeof usage !== "object") return { input: undefined, output: undefined, total: 0 };
  const input = number(usage.inputTokens, usage.input_tokens, usage.prompt_tokens);
  const output = number(usage.outputTokens, usage.output_tokens, usage.completion_tokens);
  const total = number(usage.totalTokens, usage.total_tokens) ?? (input ?? 0) + (output ?? 0);
  return { input, output, total };
}
