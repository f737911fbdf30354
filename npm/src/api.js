// What every entry point exports, given the compiled module.

import { createJxray } from "./core.js";

export { createJxray };
export { Outcome } from "./outcome.js";
export { repairPrompt } from "./repair.js";
export { instrument } from "./telemetry.js";
export {
  ExtractError,
  TruncatedError,
  NoJsonError,
  InvalidJsonError,
  SchemaError,
  UnreadableError,
} from "./errors.js";
