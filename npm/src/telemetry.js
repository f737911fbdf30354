// Observability without a vendor: when the OpenTelemetry API is installed (an optional peer
// dependency), the repair loop makes one span per logical request and one per attempt, with
// the `gen_ai.*` attributes that apply and `jxray.*` ones, and counts outcomes by layer or
// failure kind — plain `extract` calls too, once switched on. Without it, nothing happens.

const state = { api: undefined, loading: null, extract: false, counters: new WeakMap() };

/** The API's package name, kept from bundlers: a bundle without it must still build. */
const API_PACKAGE = "@opentelemetry/api";

async function loadApi() {
  try {
    return await import(/* webpackIgnore: true */ /* @vite-ignore */ API_PACKAGE);
  } catch {
    return null;
  }
}

/** The OpenTelemetry API, or null when it is not installed. */
export async function otelApi() {
  if (state.api === undefined) state.api = await (state.loading ??= loadApi());
  return state.api;
}

/**
 * Switch telemetry on: `api` is the `@opentelemetry/api` module (found by import when not
 * given); with `extract: true`, every `extract` call is counted too. Resolves to whether the
 * API was found.
 */
export async function instrument({ api, extract = false } = {}) {
  state.api = api ?? (await otelApi());
  state.extract = Boolean(extract) && state.api !== null;
  return state.api !== null;
}

/** Count an outcome (`source`: `extract` or `repair`) by its layer or failure kind. */
export function countOutcome(outcome, source, api = state.api) {
  if (!api) return;
  const provider = api.metrics.getMeterProvider();
  let counter = state.counters.get(provider);
  if (!counter) {
    counter = provider.getMeter("jxray").createCounter("jxray.outcomes", {
      description: "Outputs judged, by the layer that fired or the failure kind",
      unit: "{outcome}",
    });
    state.counters.set(provider, counter);
  }
  counter.add(1, { "jxray.outcome": outcome.ok ? outcome.layer : outcome.failure.kind, "jxray.source": source });
}

/** Whether plain `extract` calls are counted. */
export function countsExtract() {
  return state.extract;
}

/** The spans of one repair loop; every method is a no-op without the API. */
export class RepairSpans {
  constructor(api) {
    this.api = api;
    this.tracer = api?.trace.getTracer("jxray");
    this.request = this.tracer?.startSpan("jxray.repair", { attributes: { "gen_ai.operation.name": "chat" } });
    this.open = null;
  }

  /** A span for attempt `attempt`, a child of the request's. */
  attempt(attempt) {
    if (!this.tracer) return null;
    const parent = this.api.trace.setSpan(this.api.context.active(), this.request);
    /** The attempt's span until it is judged: ended by `fail` when the loop ends first. */
    this.open = this.tracer.startSpan("jxray.repair.attempt", { attributes: { "jxray.attempt": attempt } }, parent);
    return this.open;
  }

  /** An attempt's verdict on its span (`tokens`: its usage's counts), counted. */
  judged(span, { outcome, stopReason }, tokens, action, repaired) {
    if (!span) return;
    const attributes = {
      "jxray.action": action,
      "jxray.repaired": repaired,
      ...(outcome.ok
        ? { "jxray.layer": outcome.layer }
        : {
            "jxray.failure.kind": outcome.failure.kind,
            ...(outcome.failure.defect ? { "jxray.failure.defect": outcome.failure.defect } : {}),
            ...(outcome.failure.cause ? { "jxray.failure.cause": outcome.failure.cause } : {}),
          }),
      ...(stopReason ? { "gen_ai.response.finish_reasons": [stopReason] } : {}),
      ...usageAttributes(tokens),
    };
    span.setAttributes(attributes);
    span.end();
    this.open = null;
    countOutcome(outcome, "repair", this.api);
  }

  /** The loop ended with `error` (generate threw, a bad reply, the fallback threw, an
   * abort): the open attempt's span and the request's end with an error status. */
  fail(error) {
    if (this.open) {
      this.open.recordException(error);
      this.open.setStatus({ code: this.api.SpanStatusCode.ERROR, message: String(error?.message ?? error) });
      this.open.end();
      this.open = null;
    }
    this.end(null, error);
  }

  /** The request's span, with the result's record (or the error that ended the loop). */
  end(result, error) {
    if (!this.request) return;
    if (result) {
      const { telemetry } = result;
      const attributes = {
        "jxray.status": result.status,
        "jxray.repaired": result.repaired,
        "jxray.attempt_count": telemetry.attempt_count,
        "jxray.raw_output_hash": telemetry.raw_output_hash,
      };
      for (const [name, value] of Object.entries({
        "jxray.initial_failure": telemetry.initial_failure,
        "jxray.repair_failure": telemetry.repair_failure,
        "jxray.fallback_kind": telemetry.fallback_kind,
        "jxray.schema_version": telemetry.schema_version,
        "jxray.stopped": result.stopped,
      })) {
        if (value !== null && value !== undefined) attributes[name] = value;
      }
      this.request.setAttributes(attributes);
    } else if (error) {
      this.request.setStatus({ code: this.api.SpanStatusCode.ERROR, message: String(error?.message ?? error) });
    }
    this.request.end();
    this.request = null;
  }
}

function usageAttributes({ input, output }) {
  return {
    ...(typeof input === "number" ? { "gen_ai.usage.input_tokens": input } : {}),
    ...(typeof output === "number" ? { "gen_ai.usage.output_tokens": output } : {}),
  };
}
