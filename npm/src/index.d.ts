// Types of the `jxray` package: the engine of the jxray workbench, in WebAssembly.

/** Where an accepted value came from: cheapest first. */
export type Layer = "direct" | "fenced" | "scanned" | "lenient" | (string & {});

/** Why nothing was accepted: each kind points at a different fix. */
export type FailureKind = "truncated" | "no-json" | "invalid" | "schema" | "unreadable";

/** Why an output failed beyond its form. */
export type Cause = "refusal" | "filtered" | "runaway" | "reasoning" | "tool-call-text" | (string & {});

/** How the stop reason reads. */
export type StopClass = "complete" | "truncated" | "filtered" | "tool-call" | "absent" | "unknown";

/** One defect found in a candidate, with its place. */
export interface DefectAt {
  kind: string;
  offset: number;
  line: number;
  column: number;
  message: string;
  [more: string]: unknown;
}

/** Why nothing was accepted: the kind, the headline defect, the place (1-based) and the fix. */
export interface Failure {
  kind: FailureKind;
  /** The headline defect of an `invalid` failure (`trailing-comma`, `single-quotes`, …). */
  defect: string | null;
  cause: Cause | null;
  line: number;
  column: number;
  /** What is wrong and what to do about it. */
  message: string;
  /** Every defect found, in text order. */
  defects: DefectAt[];
  /** The byte offset of the place (UTF-8). */
  offset: number;
}

/** A repair made to the accepted candidate. */
export interface Repair {
  kind: string;
  offset: number;
  [more: string]: unknown;
}

/** A fact worth seeing even on success. */
export interface WarningDetail {
  kind: string;
  offset: number | null;
  message: string;
}

/** The line `jxray check --format jsonl` writes for the same text (contract §3). */
export interface OutcomeRecord {
  source: string;
  ok: boolean;
  layer: Layer | null;
  value: unknown;
  span: [number, number] | null;
  repairs: Repair[];
  warnings: string[];
  failure: Failure | null;
  stop_reason: string | null;
  provider: string | null;
  repaired: boolean;
  stop: StopClass;
  warning_details: WarningDetail[];
  model: string | null;
}

interface OutcomeBase {
  /** The accepted candidate's [start, end) in the text, in UTF-16 code units: `text.slice(...span)`. */
  readonly span: [number, number] | null;
  /** The same in UTF-8 bytes, as the jsonl line and the CLI count. */
  readonly byteSpan: [number, number] | null;
  readonly repairs: Repair[];
  /** Warning kinds, in order, without repeats (`trailing-prose`, `duplicate-key`, …). */
  readonly warnings: string[];
  readonly warningDetails: WarningDetail[];
  readonly repaired: boolean;
  /** Every candidate tried, in order. */
  readonly trace: unknown[];
  /** The lenient reading of the best invalid candidate, if there was one. */
  readonly lenient: unknown | null;
  /** The tool call written as text the value is the body of, or that the failure is. */
  readonly toolCall: unknown | null;
  /** The text the decoder saw: the repaired candidate, or the raw span. */
  readonly normalized: string | null;
  readonly stop: StopClass;
  readonly stopReason: string | null;
  readonly provider: string | null;
  readonly model: string | null;
  /** `-` for a text; `response`, `response#call-N` for a response's outputs. */
  readonly source: string;
  /** The text that was judged (a response's output text, or a tool call's arguments). */
  readonly text: string | null;
  /** The `jxray check --format jsonl` line (what JSON.stringify writes). */
  toJSON(): OutcomeRecord;
  /** The outcome in one line, as `jxray extract` prints it. */
  toString(): string;
}

/** A value was accepted. */
export interface Accepted<T> extends OutcomeBase {
  readonly ok: true;
  readonly layer: Layer;
  readonly value: T;
  readonly failure: null;
  valueOrThrow(): T;
}

/** Nothing was accepted; `failure` says why. A `schema` failure keeps the value it judged. */
export interface Failed extends OutcomeBase {
  readonly ok: false;
  readonly layer: Layer | null;
  readonly value: unknown;
  readonly failure: Failure;
  /** Throws the error of the failure's kind. */
  valueOrThrow(): never;
}

/** What extraction says about one text: a union on `ok`. */
export type Outcome<T = unknown> = Accepted<T> | Failed;
export declare const Outcome: { prototype: OutcomeBase };

/** A validator that implements Standard Schema v1 (zod ≥ 3.24, valibot, arktype). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

type OutputOf<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;

export interface ExtractOptions<S extends StandardSchemaV1 | undefined = undefined> {
  /** The provider's stop or finish reason (`length`, `max_tokens`, …): a cut is `truncated`. */
  stopReason?: string | null;
  /** Accept a candidate after meaning-changing lenient fixes (contract §4). */
  acceptLenient?: boolean;
  /** Replace strings that hold JSON by the decoded value. */
  decodeStringified?: boolean;
  /** Which candidate wins when several parse: `first` (default) or `last`. */
  pick?: "first" | "last";
  /** A Standard Schema validator: the first candidate that validates wins. */
  schema?: S;
  /** Integers beyond ±(2^53 − 1) as exact `bigint`s instead of JSON.parse's numbers. */
  bigints?: boolean;
}

/** Find, judge and decode the JSON in a model's text. */
export declare function extract<S extends StandardSchemaV1 | undefined = undefined>(
  text: string,
  options?: ExtractOptions<S>,
): Outcome<S extends StandardSchemaV1 ? OutputOf<S> : unknown>;

/**
 * Every output of a provider response — an OpenAI (chat or Responses), Anthropic, Gemini or
 * Ollama response as the SDK returns it, its JSON text, or a Vercel AI SDK `generateText`
 * result — each its own outcome: the text, then each tool call's arguments.
 */
export declare function extractResponse<S extends StandardSchemaV1 | undefined = undefined>(
  response: unknown,
  options?: Omit<ExtractOptions<S>, "stopReason">,
): Outcome<S extends StandardSchemaV1 ? OutputOf<S> : unknown>[];

/** The API over a compiled module, for runtimes no entry point fits. */
export declare function createJxray(module: WebAssembly.Module): {
  extract: typeof extract;
  extractResponse: typeof extractResponse;
};

/** No value was accepted; a subclass names the kind. Also a SyntaxError, as JSON.parse throws. */
export declare class ExtractError extends SyntaxError {
  readonly outcome: Failed;
  readonly failure: Failure;
}
/** The output was cut off: raise the limit or shrink the request. */
export declare class TruncatedError extends ExtractError {}
/** No JSON object or array in the output (or a refusal, or a filtered output). */
export declare class NoJsonError extends ExtractError {}
/** A candidate is there but is not valid JSON; `failure.defect` names the problem. */
export declare class InvalidJsonError extends ExtractError {}
/** Valid JSON that breaks the schema; the message lists each failing path. */
export declare class SchemaError extends ExtractError {}
/** The text could not be read (not well-formed Unicode, an envelope without its text). */
export declare class UnreadableError extends ExtractError {}

/** What to do about an outcome before paying for another call (contract §6). */
export type RepairAction = "accept" | "repair" | "raise-limit" | "change-request" | "fix-serving" | "fix-capture";

/** What `generate` returns: the text, or the text with its stop reason, usage and the model that answered. */
/**
 * What `generate` returns: the text, or an object with it. The stop reason is read in any
 * provider's spelling (a non-string one is a TypeError); the usage is `usage` (any SDK's
 * spelling) or a Gemini response's `usageMetadata`.
 */
export type GenerateReply =
  | string
  | {
      text: string;
      stopReason?: string | null;
      finishReason?: string | null;
      finish_reason?: string | null;
      stop_reason?: string | null;
      done_reason?: string | null;
      usage?: unknown;
      usageMetadata?: unknown;
      model?: string | null;
      /** The AI SDK's generateText result names its model here. */
      response?: { modelId?: string };
    }
  /** A provider SDK's own response (an openai chat completion or Responses object, an
   * Anthropic message, a Gemini or Ollama response), read as `extractResponse` reads it: a
   * structured refusal is a refusal, never a paid re-ask. */
  | { choices: unknown[] }
  | { candidates: unknown[] }
  | { object: "response" }
  | { role: "assistant"; content: unknown[] };

export interface RepairContext {
  /** 1 for the first call, 2 for the first repair request, … */
  attempt: number;
  signal?: AbortSignal;
  /** The attempt being repaired: its prompt, text, outcome and the repair request alone
   * (to send as a follow-up message in a conversation, instead of the combined prompt). */
  previous: { prompt: string; text: string; outcome: Outcome; repairRequest: string } | null;
}

export interface RepairAttempt {
  attempt: number;
  prompt: string;
  text: string;
  outcome: Outcome;
  stopReason: string | null;
  usage: unknown;
  latencyMs: number;
  /** The model the reply named (its `model`); undefined when it named none. */
  model?: string;
  /** With `captures`: this attempt's capture file, relative to that folder, `/`-separated
   * (`2026-12-02/07-50-01.123-gpt-4o-mini-1a2b3c4d-a1.jsonl`); undefined when it could not be written. */
  capture?: string;
}

/** Seed 003's record of one logical request; the raw output only as a digest. */
export interface RepairTelemetry {
  schema_version: string | null;
  initial_failure: FailureKind | null;
  repair_failure: FailureKind | null;
  attempt_count: number;
  fallback_kind: string | null;
  /** `sha256:` and the hex digest of the last output. */
  raw_output_hash: string;
}

interface RepairResultBase {
  /** A repair request was made and its answer accepted. */
  repaired: boolean;
  /** The value is an accepted lenient reading (`acceptLenient`), taken without a call. */
  lenient: boolean;
  attempts: RepairAttempt[];
  telemetry: RepairTelemetry;
  /** With `captures`: the 16 hex digits every attempt's request file names as its chain. */
  chain?: string;
}

/** A value was accepted. */
export interface RepairSuccess<T> extends RepairResultBase {
  status: "success";
  value: T;
  /** The last outcome. */
  outcome: Accepted<T>;
  stopped: null;
  /** The value. */
  valueOrThrow(): T;
}

/** No value was accepted; the value is the fallback's. */
export interface RepairFallback<T> extends RepairResultBase {
  status: "fallback";
  value: unknown;
  outcome: Outcome<T>;
  /** Why the loop stopped without a value: the policy's action for the failure, `max-repairs` or `budget`. */
  stopped: RepairAction | "max-repairs" | "budget";
  /** The fallback's value. */
  valueOrThrow(): unknown;
}

/** No value, and no fallback. */
export interface RepairFailure<T> extends RepairResultBase {
  status: "failure";
  value: undefined;
  outcome: Outcome<T>;
  /** Why the loop stopped without a value: the policy's action for the failure, `max-repairs` or `budget`. */
  stopped: RepairAction | "max-repairs" | "budget";
  /** Throws the error of the last failure's kind (a `NoJsonError` for a tool call written as text). */
  valueOrThrow(): never;
}

/** How one logical request ended: a union on `status`, so `value` is `T` after `status === "success"`. */
export type RepairResult<T> = RepairSuccess<T> | RepairFallback<T> | RepairFailure<T>;

export interface RepairOptions<S extends StandardSchemaV1 | undefined = undefined>
  extends Omit<ExtractOptions<S>, "stopReason"> {
  /** Repair requests after the first call (default 1): generate is called at most 1 + maxRepairs times. */
  maxRepairs?: number;
  /** Stop before a repair call once this many tokens (from each reply's usage, in any
   * provider's spelling) or milliseconds are spent; another key or a value that is not a
   * number of 0 or more is a TypeError. */
  budget?: { maxTokens?: number; maxMs?: number };
  /** The value (or a function of the last outcome) to return when no value was accepted; never
   * marked success. `null` and `undefined` are no fallback (a `null` value: `() => null`). */
  fallback?: unknown;
  /** The fallback's name in the telemetry (`human_review`, …); default `value` or `function`. */
  fallbackKind?: string;
  /** Your output schema's version, for the telemetry. */
  schemaVersion?: string;
  /** Override the policy: a failure's cause (else its kind) → an action. */
  policy?: Record<string, RepairAction>;
  /** Stops the loop: it rejects with the signal's reason before the next call, or when a call
   * returns after the abort (that reply is neither judged nor written), and returns no fallback. */
  signal?: AbortSignal;
  /** The output is quoted in a repair request up to this many characters (default 8000). */
  maxOutputChars?: number;
  /** The schema's required keys, named in the repair request (read from the schema when it publishes a JSON Schema). */
  required?: string[];
  /**
   * A folder: each attempt is written there as a capture (`YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl`)
   * with its request file, one chain that `jxray check` and the workbench show. Needs a file
   * system (Node, Bun or Deno): elsewhere a TypeError before the first call. A path that is
   * not a folder, or a date folder planted as a symlink, is an Error before the first call; a
   * write that fails later is a warning (`process.emitWarning`), never the loop's end.
   */
  captures?: string;
}

/** Call `generate`, extract, and — only when the policy says a repair request can fix the failure — re-ask. */
export declare function repair<S extends StandardSchemaV1 | undefined = undefined>(
  generate: (prompt: string, context: RepairContext) => GenerateReply | Promise<GenerateReply>,
  prompt: string,
  options?: RepairOptions<S>,
): Promise<RepairResult<S extends StandardSchemaV1 ? OutputOf<S> : unknown>>;

/** The text of one repair request for a failed outcome; null when it is ok. */
export declare function repairPrompt(
  outcome: Outcome,
  options?: { maxOutputChars?: number; required?: string[]; policy?: Record<string, RepairAction> },
): string | null;

/**
 * Switch OpenTelemetry on: `api` is the `@opentelemetry/api` module (imported when not
 * given; the package's optional peer dependency). The repair loop's spans and counts need
 * only the API to be installed; with `extract: true`, every `extract` call is counted too
 * (`jxray.outcomes`, by `jxray.outcome`: the layer or failure kind). Resolves to whether
 * the API was found.
 */
export declare function instrument(options?: { api?: unknown; extract?: boolean }): Promise<boolean>;

/** A signal the streaming extractor raises, at the byte where it became certain. */
export interface StreamSignal {
  /** `schema`: with a schema, a part of the value (an item, a member, the whole) closed and
   * breaks the rules for its place; `path` says where. */
  kind: "runaway" | "tool-call-text" | "reasoning" | "refusal" | "invalid" | "schema";
  byte: number;
  line: number;
  column: number;
  message: string;
  /** For `invalid`, the defect as the engine names it. */
  defect?: string;
  /** For `tool-call-text`, the dialect its marker names. */
  dialect?: string;
  /** For `invalid`: whether a later candidate could still give the output a value. */
  later_may_change?: boolean;
  /** For `schema`: the JSON Pointer of the value that breaks the rules. */
  path?: string;
}

/** One change to the value shown, in order. */
export type StreamDelta =
  | { op: "add"; path: string; value: unknown }
  | { op: "append"; path: string; text: string }
  | { op: "withdraw" };

/** A value of `T` as it may stand while it arrives: any member still missing, strings cut. */
export type DeepPartial<T> = T extends (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** What is known after a chunk (docs/streaming.md). */
export interface StreamSnapshot<T = unknown> {
  state: "waiting" | "reading";
  /** While waiting: `prose`, `reasoning`, `fence` or `tool-call`. */
  why?: "prose" | "reasoning" | "fence" | "tool-call";
  /** While reading: where the value was found. */
  layer?: "direct" | "fenced" | "scanned" | "tool-call-text";
  dialect?: string;
  /** A value from prose (or held at the start) that what follows may still take back. */
  provisional: boolean;
  deltas: StreamDelta[];
  openPaths: string[];
  finalPaths: string[];
  signals: StreamSignal[];
  bytes: number;
  /** The value so far: the extractor's own, which later chunks grow. */
  value: DeepPartial<T> | undefined;
}

export interface ExtractorOptions<S extends StandardSchemaV1 | undefined = undefined>
  extends Omit<ExtractOptions<S>, "stopReason"> {
  /** Stop at the first of these signals: `stopped` is set and `signal` aborts. */
  stopOn?: StreamSignal["kind"][] | string;
  /** The runaway bound, in bytes (default 512). */
  runawayBytes?: number;
}

/** An item a streamed source may give: text, bytes, or an SDK's chunk or event. */
export type StreamItem = string | Uint8Array | object;

export interface StreamExtractor<T = unknown> {
  /** Feed the next chunk (a string, or bytes split anywhere). */
  feed(chunk: string | Uint8Array): StreamSnapshot<T>;
  /** Read a source as it arrives, yielding each snapshot; ends at a `stopOn` signal. */
  read(
    source: AsyncIterable<StreamItem> | ReadableStream<StreamItem>,
    stopReason?: string,
  ): AsyncGenerator<StreamSnapshot<T>, void, undefined>;
  /** The outcome of the whole text, as `extract` gives it. */
  end(stopReason?: string): Outcome<T>;
  /** The value so far. */
  readonly value: DeepPartial<T> | undefined;
  /** The text received so far. */
  readonly text: string;
  /** The first `stopOn` signal, once raised. */
  readonly stopped: StreamSignal | null;
  /** Aborted at a `stopOn` signal: give it to the request so the provider stops generating. */
  readonly signal: AbortSignal;
  /** The outcome, once `read` ended or `end` was called. */
  readonly outcome: Outcome<T> | undefined;
}

/** A streaming extractor (docs/streaming.md). */
export declare function createExtractor<S extends StandardSchemaV1 | undefined = undefined>(
  options?: ExtractorOptions<S>,
): StreamExtractor<S extends StandardSchemaV1 ? OutputOf<S> : unknown>;

/** The value after each change of a streamed source, a new object each time: a drop-in for
 * `partialObjectStream`, without invented values. */
export declare function partialValues<S extends StandardSchemaV1 | undefined = undefined>(
  source: AsyncIterable<StreamItem> | ReadableStream<StreamItem>,
  options?: ExtractorOptions<S>,
): AsyncGenerator<DeepPartial<S extends StandardSchemaV1 ? OutputOf<S> : unknown>, void, undefined>;
