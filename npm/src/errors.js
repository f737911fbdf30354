// One error class per failure kind, all ExtractError and all SyntaxError, so code that
// caught JSON.parse's SyntaxError keeps working when it calls outcome.valueOrThrow().

/** No value was accepted; `outcome` and `failure` say why (a subclass names the kind). */
export class ExtractError extends SyntaxError {
  constructor(message, outcome) {
    super(message);
    this.name = new.target.name;
    /** The whole outcome. */
    this.outcome = outcome;
    /** Why nothing was accepted: kind, defect, cause, line, column, message, defects. */
    this.failure = outcome ? outcome.failure : null;
  }
}

/** The output was cut off (a length limit, or it ends inside a value): raise the limit. */
export class TruncatedError extends ExtractError {}
/** No JSON object or array in the output (or a refusal, or a filtered output). */
export class NoJsonError extends ExtractError {}
/** A candidate is there but is not valid JSON; `failure.defect` names the problem. */
export class InvalidJsonError extends ExtractError {}
/** Valid JSON that breaks the schema; the message lists each failing path. */
export class SchemaError extends ExtractError {}
/** The text could not be read (not well-formed Unicode, an envelope without its text). */
export class UnreadableError extends ExtractError {}

const BY_KIND = {
  truncated: TruncatedError,
  "no-json": NoJsonError,
  invalid: InvalidJsonError,
  schema: SchemaError,
  unreadable: UnreadableError,
};

/** The error for an outcome that failed, with the line `jxray extract` prints. */
export function errorFor(outcome, message) {
  const Class = BY_KIND[outcome.failure.kind] ?? ExtractError;
  return new Class(message, outcome);
}

/** How a usage error names a wrong argument: `null`, `an array`, `a number`, … */
export function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
