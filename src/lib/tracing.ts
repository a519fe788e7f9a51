/**
 * OpenTelemetry traces of both servers (the chat server and the bot server), exported over
 * OTLP/HTTP when an endpoint is configured (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, as OpenTelemetry's SDKs read them), nothing
 * otherwise: the SDK is not even loaded then.
 *
 * Spans follow the request context of logger.ts: a request's server span takes the caller's
 * `traceparent` as its parent, its ids become the context's `trace_id` and span id (so log lines
 * and the requests it causes carry them), and `withSpan` makes a child span current for the work
 * it wraps (sending a message, the fan-out, an outgoing webhook, a bot's reply).
 */
import crypto from "node:crypto";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import { contextFromHeaders, requestContext } from "./logger.js";
import type { RequestContext } from "./logger.js";

export { SpanKind };

let tracer: Tracer | undefined;
let shutdownProvider: (() => Promise<void>) | undefined;

/** Where spans go: the OTLP/HTTP traces URL the environment names, or undefined (tracing off). */
export function otlpTracesUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const traces = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim();
  if (traces) return traces;
  const base = env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim();
  if (base) return `${base.replace(/\/+$/, "")}/v1/traces`;
  return undefined;
}

/**
 * Starts exporting spans to `url` as `serviceName` (once per process; later calls do nothing).
 * Spans are batched and sent every `OTEL_BSP_SCHEDULE_DELAY` ms (default 5000) and at `stopTracing`.
 */
export async function startTracing(
  serviceName: string,
  url: string | undefined = otlpTracesUrl(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  if (url === undefined || tracer !== undefined) return tracer !== undefined;
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const delay = Number(env["OTEL_BSP_SCHEDULE_DELAY"]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url }), {
        ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
      }),
    ],
  });
  tracer = provider.getTracer("zulip-compatible-chat");
  shutdownProvider = () => provider.shutdown();
  return true;
}

/** Sends the spans not yet exported and stops tracing (a server's shutdown). */
export async function stopTracing(): Promise<void> {
  const shutdown = shutdownProvider;
  tracer = undefined;
  shutdownProvider = undefined;
  await shutdown?.();
}

/** The OpenTelemetry context whose span is the request context's current span. */
function parentOf(context: RequestContext | undefined, remote: boolean): Context {
  if (context === undefined) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: remote,
  });
}

function finish(span: Span, error: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : { message: JSON.stringify(error) ?? "undefined" });
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs `serve` under a server span for an incoming request whose caller's span is `callerSpanId`
 * (from its `traceparent`, in `base.traceId`; undefined: a new trace). The context handed to `serve` carries the span's ids.
 * `describe` names the span and adds its attributes once the request is served.
 */
export async function serverSpan<T>(
  base: RequestContext,
  callerSpanId: string | undefined,
  serve: (context: RequestContext) => Promise<T>,
  describe: () => { name: string; attributes: Attributes },
): Promise<T> {
  if (tracer === undefined) return serve(base);
  const parent =
    callerSpanId === undefined ? ROOT_CONTEXT : parentOf({ ...base, spanId: callerSpanId }, true);
  const span = tracer.startSpan("request", { kind: SpanKind.SERVER }, parent);

  const { traceId, spanId, traceFlags } = span.spanContext();
  const sampled = (traceFlags & TraceFlags.SAMPLED) !== 0;
  let error: unknown;
  try {
    return await serve({ ...base, traceId, spanId, sampled });
  } catch (err) {
    error = err;
    throw err;
  } finally {
    const { name, attributes } = describe();
    span.updateName(name);
    span.setAttributes(attributes);
    finish(span, error);
  }
}

/**
 * Runs `fn` under a child span of the current request context's span (a new trace outside any
 * request); requests made inside carry the child as their parent. Without tracing, or inside a
 * trace that is not sampled, runs `fn` alone (requests made inside pass the decision on).
 */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  fn: () => Promise<T>,
): Promise<T> {
  const current = requestContext.getStore();
  // Tracing off, or a trace not sampled (its spans would not be recorded): nothing to make.
  if (tracer === undefined || current?.sampled === false) return fn();
  const span = tracer.startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    parentOf(current, false),
  );
  const { traceId, spanId, traceFlags } = span.spanContext();
  const sampled = (traceFlags & TraceFlags.SAMPLED) !== 0;
  let error: unknown;
  try {
    const requestId = current?.requestId ?? crypto.randomUUID();
    return await requestContext.run({ requestId, traceId, spanId, sampled }, fn);
  } catch (err) {
    error = err;
    throw err;
  } finally {
    finish(span, error);
  }
}

/**
 * Serves a request in its context (both servers' HTTP layers): the caller's ids are taken from its
 * headers (or made), `X-Request-Id` is echoed, and `serve` runs inside the context, under a server
 * span when tracing is on (named after the route once it is known).
 */
export function inRequestContext<T>(
  http: {
    get(header: string): string;
    set(header: string, value: string): void;
    method?: string;
    path?: string;
    status?: number;
    _matchedRoute?: string | RegExp | undefined;
  },
  serve: () => Promise<T>,
): Promise<T> {
  const traceparent = http.get("traceparent") || undefined;
  const base = contextFromHeaders(http.get("x-request-id") || undefined, traceparent);
  http.set("X-Request-Id", base.requestId);
  // The caller's span (the parent of ours) when its traceparent was valid and its trace kept.
  const caller = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent?.trim() ?? "");
  return serverSpan(
    base,
    caller?.[1] === base.traceId && !/^0+$/.test(caller[2] ?? "") ? caller[2] : undefined,
    (context) => requestContext.run(context, serve),
    () => {
      const route = typeof http._matchedRoute === "string" ? http._matchedRoute : (http.path ?? "");
      return {
        name: `${http.method ?? "HTTP"} ${route}`,
        attributes: {
          "http.request.method": http.method ?? "",
          "http.route": route,
          "http.response.status_code": http.status ?? 0,
        },
      };
    },
  );
}
