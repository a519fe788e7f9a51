/**
 * Calling outside services from a bot (xkcd, Wikipedia, GitHub, …) with `got`: JSON in, a typed
 * outcome out. Base URLs come from the bot's config so tests point them at recorded responses.
 */

// got is loaded by the first call (the chat server loads the kit for its embedded bots; most of
// them never call out).

export interface JsonResponse {
  status: number;
  body: unknown;
}

/** The service could not be reached, timed out or did not answer JSON. */
export class ServiceUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface GetJsonOptions {
  searchParams?: Record<string, string>;
  headers?: Record<string, string>;
  /** Default 10 s. */
  timeoutMs?: number;
}

/** GET → `{status, body}` for any HTTP status; {@link ServiceUnavailableError} when there is no JSON answer. */
export async function getJson(url: string, options: GetJsonOptions = {}): Promise<JsonResponse> {
  let status: number;
  let text: string;
  const { default: got } = await import("got");
  try {
    const response = await got(url, {
      ...(options.searchParams ? { searchParams: options.searchParams } : {}),
      headers: { "user-agent": "ZulipCompatibleChatBot/0.1", accept: "application/json", ...options.headers },
      timeout: { request: options.timeoutMs ?? 10_000 },
      retry: { limit: 0 },
      throwHttpErrors: false,
    });
    status = response.statusCode;
    text = response.body;
  } catch (err) {
    throw new ServiceUnavailableError(
      `Cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch (err) {
    if (status !== 200) return { status, body: undefined };
    throw new ServiceUnavailableError(`${url} did not answer JSON (HTTP ${status})`, { cause: err });
  }
}

/** Reads `obj.a.b` of an untyped JSON value; undefined when any step is missing. */
export function pick(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
