/**
 * The API's error vocabulary. Domain code throws these classes; one middleware
 * (src/lib/error-handler.ts) writes every error body from them, as `errorAnswer` gives it.
 * Anything that is not a JsonableError becomes a logged 500 with a generic message.
 */

export type ErrorCode =
  | "BAD_REQUEST"
  | "REQUEST_VARIABLE_MISSING"
  | "REQUEST_VARIABLE_INVALID"
  | "REQUEST_CONFUSING_VAR"
  | "INVALID_JSON"
  | "BAD_NARROW"
  | "UNAUTHORIZED"
  | "UNAUTHORIZED_PRINCIPAL"
  | "INVALID_API_KEY"
  | "USER_DEACTIVATED"
  | "AUTHENTICATION_FAILED"
  | "RATE_LIMIT_HIT"
  | "STREAM_DOES_NOT_EXIST"
  | "BAD_EVENT_QUEUE_ID"
  | "MISSING_HTTP_EVENT_HEADER"
  | "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
  | "ANOMALOUS_WEBHOOK_PAYLOAD"
  | "INVALID_WEBHOOK_SIGNATURE"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "REQUEST_TOO_LARGE"
  | "REACTION_ALREADY_EXISTS"
  | "REACTION_DOES_NOT_EXIST"
  | "CSRF_FAILED";

/** An error the client may see: status, code, message and extra top-level fields. */
export class JsonableError extends Error {
  readonly code: ErrorCode = "BAD_REQUEST";
  readonly httpStatus: number = 400;

  constructor(msg: string, options?: ErrorOptions) {
    super(msg, options);
    this.name = new.target.name;
  }

  /** Extra top-level fields of the error body (Zulip's data_fields). */
  data(): Record<string, unknown> {
    return {};
  }

  headers(): Record<string, string> {
    return {};
  }

  /**
   * The body written instead of Zulip's error shape, set by the webhook pipeline for an
   * integration whose senders read their own service's (Slack's `{ok: false, error}`).
   */
  wireBody: Record<string, unknown> | undefined = undefined;

  toJSON(): Record<string, unknown> {
    return this.wireBody ?? { result: "error", msg: this.message, code: this.code, ...this.data() };
  }
}

/** A plain 400 BAD_REQUEST with a message: the most common error in Zulip. */
export class BadRequestError extends JsonableError {}

export class RequestVariableMissingError extends JsonableError {
  override readonly code = "REQUEST_VARIABLE_MISSING";
  constructor(readonly varName: string) {
    super(`Missing '${varName}' argument`);
  }
  override data(): Record<string, unknown> {
    return { var_name: this.varName };
  }
}

export class RequestVariableInvalidError extends JsonableError {
  override readonly code = "REQUEST_VARIABLE_INVALID";
  constructor(
    readonly varName: string,
    readonly badValue: string,
  ) {
    super(`Bad value for '${varName}': ${badValue}`);
  }
  override data(): Record<string, unknown> {
    return { var_name: this.varName, bad_value: this.badValue };
  }
}

export class RequestConfusingVarError extends JsonableError {
  override readonly code = "REQUEST_CONFUSING_VAR";
  constructor(
    readonly varName1: string,
    readonly varName2: string,
  ) {
    super(`Can't decide between '${varName1}' and '${varName2}' arguments`);
  }
  override data(): Record<string, unknown> {
    return { var_name1: this.varName1, var_name2: this.varName2 };
  }
}

export class InvalidJsonError extends JsonableError {
  override readonly code = "INVALID_JSON";
  constructor(msg = "Malformed JSON") {
    super(msg);
  }
}

export class BadNarrowError extends JsonableError {
  override readonly code = "BAD_NARROW";
  constructor(readonly desc: string) {
    super(`Invalid narrow operator: ${desc}`);
  }
  override data(): Record<string, unknown> {
    return { desc: this.desc };
  }
}

const WWW_AUTHENTICATE = { "WWW-Authenticate": 'Basic realm="zulip"' };

export class UnauthorizedError extends JsonableError {
  override readonly code = "UNAUTHORIZED";
  override readonly httpStatus = 401;
  constructor(msg = "Not logged in: API authentication or user session required") {
    super(msg);
  }
  override headers(): Record<string, string> {
    return WWW_AUTHENTICATE;
  }
}

export class AuthenticationFailedError extends JsonableError {
  override readonly code = "AUTHENTICATION_FAILED";
  override readonly httpStatus = 401;
  constructor(msg = "Your username or password is incorrect") {
    super(msg);
  }
}

/** A web-session request without the session's CSRF token (Zulip's CsrfFailureError). */
export class CsrfFailedError extends JsonableError {
  override readonly code = "CSRF_FAILED";
  override readonly httpStatus = 403;
  constructor(reason: string) {
    super(`CSRF error: ${reason}`);
  }
}

export class UserDeactivatedError extends JsonableError {
  override readonly code = "USER_DEACTIVATED";
  override readonly httpStatus = 401;
  constructor() {
    super("Account is deactivated");
  }
}

export class InvalidApiKeyError extends JsonableError {
  override readonly code = "INVALID_API_KEY";
  override readonly httpStatus = 401;
  constructor(msg = "Invalid API key") {
    super(msg);
  }
}

/** "Must be an organization administrator" and friends. */
export class UnauthorizedPrincipalError extends JsonableError {
  override readonly code = "UNAUTHORIZED_PRINCIPAL";
  constructor(
    msg: string,
    readonly principal?: string | number,
  ) {
    super(msg);
  }
  override data(): Record<string, unknown> {
    return this.principal === undefined ? {} : { principal: this.principal };
  }
}

export class AccessDeniedError extends JsonableError {
  override readonly httpStatus = 403;
  constructor(msg = "Access denied") {
    super(msg);
  }
}

export class RateLimitedError extends JsonableError {
  override readonly code = "RATE_LIMIT_HIT";
  override readonly httpStatus = 429;
  constructor(readonly retryAfterSeconds: number) {
    super("API usage exceeded rate limit");
  }
  override data(): Record<string, unknown> {
    return { "retry-after": this.retryAfterSeconds };
  }
  override headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfterSeconds) };
  }
}

export class StreamDoesNotExistError extends JsonableError {
  override readonly code = "STREAM_DOES_NOT_EXIST";
  constructor(readonly stream: string) {
    super(`Stream '${stream}' does not exist`);
  }
  override data(): Record<string, unknown> {
    return { stream: this.stream };
  }
}

export class StreamIdDoesNotExistError extends JsonableError {
  override readonly code = "STREAM_DOES_NOT_EXIST";
  constructor(readonly streamId: number) {
    super(`Stream with ID '${streamId}' does not exist`);
  }
  override data(): Record<string, unknown> {
    return { stream_id: this.streamId };
  }
}

export class BadEventQueueIdError extends JsonableError {
  override readonly code = "BAD_EVENT_QUEUE_ID";
  constructor(readonly queueId: string) {
    super(`Bad event queue id: ${queueId}`);
  }
  override data(): Record<string, unknown> {
    return { queue_id: this.queueId };
  }
}

export class NotFoundError extends JsonableError {
  override readonly code = "NOT_FOUND";
  override readonly httpStatus = 404;
  constructor(msg = "Not Found") {
    super(msg);
  }
}

export class MethodNotAllowedError extends JsonableError {
  override readonly code = "METHOD_NOT_ALLOWED";
  override readonly httpStatus = 405;
  constructor(readonly allowedMethods: string[]) {
    super("Method Not Allowed");
  }
  override data(): Record<string, unknown> {
    return { allowed_methods: this.allowedMethods };
  }
  override headers(): Record<string, string> {
    return { Allow: this.allowedMethods.join(", ") };
  }
}

export class RequestTooLargeError extends JsonableError {
  override readonly code = "REQUEST_TOO_LARGE";
  override readonly httpStatus = 413;
  constructor(limitBytes: number) {
    super(`Request body too large (limit: ${limitBytes} bytes)`);
  }
}

export class ReactionAlreadyExistsError extends JsonableError {
  override readonly code = "REACTION_ALREADY_EXISTS";
  constructor() {
    super("Reaction already exists.");
  }
}

export class ReactionDoesNotExistError extends JsonableError {
  override readonly code = "REACTION_DOES_NOT_EXIST";
  constructor() {
    super("Reaction doesn't exist.");
  }
}

/** Base of the incoming-webhook errors: they carry the integration's name. */
export abstract class WebhookError extends JsonableError {
  private named = "";
  /** The integration's display name, stamped by the webhook pipeline on errors of its handlers. */
  get webhookName(): string {
    return this.named;
  }
  set webhookName(name: string) {
    this.named = name;
    this.onNamed(name);
  }
  /** Called when the pipeline names the webhook (messages that mention it are built then). */
  protected onNamed(_name: string): void {}
  override data(): Record<string, unknown> {
    return { webhook_name: this.webhookName };
  }
}

export class MissingHttpEventHeaderError extends WebhookError {
  override readonly code = "MISSING_HTTP_EVENT_HEADER";
  constructor(readonly header: string) {
    super(`Missing the HTTP event header '${header}'`);
  }
  override data(): Record<string, unknown> {
    return { ...super.data(), header: this.header };
  }
}

export class UnsupportedWebhookEventTypeError extends WebhookError {
  override readonly code = "UNSUPPORTED_WEBHOOK_EVENT_TYPE";
  constructor(
    readonly eventType: string,
    webhookName = "",
  ) {
    super(UnsupportedWebhookEventTypeError.messageFor(eventType, webhookName));
    this.webhookName = webhookName;
  }
  private static messageFor(eventType: string, webhookName: string): string {
    return webhookName === ""
      ? `The '${eventType}' event isn't currently supported`
      : `The '${eventType}' event isn't currently supported by the ${webhookName} webhook`;
  }
  protected override onNamed(name: string): void {
    this.message = UnsupportedWebhookEventTypeError.messageFor(this.eventType, name);
  }
  override data(): Record<string, unknown> {
    return { ...super.data(), event_type: this.eventType };
  }
}

/**
 * Thrown by a webhook handler for a payload that shows the service is misconfigured (Zulip's
 * "misconfigured payload" notices): the pipeline sends `notice` to the bot's owner, once a minute at
 * most, with `{bot_name}` and `{support_email}` filled in, then answers 400 with the message, or
 * success with nothing posted when `answerSuccess`.
 */
export class WebhookMisconfiguredError extends JsonableError {
  constructor(
    readonly notice: string,
    msg: string,
    readonly answerSuccess = false,
  ) {
    super(msg);
  }
}

/** A payload lacks a key the integration needs, or a value has the wrong type. */
export class InvalidPayloadError extends JsonableError {
  constructor(
    msg: string,
    readonly path?: string,
  ) {
    super(msg);
  }
}

export class AnomalousWebhookPayloadError extends WebhookError {
  override readonly code = "ANOMALOUS_WEBHOOK_PAYLOAD";
  constructor(webhookName: string) {
    super(`Unable to parse request: Did ${webhookName} generate this event?`);
    this.webhookName = webhookName;
  }
}

export class InvalidWebhookSignatureError extends JsonableError {
  override readonly code = "INVALID_WEBHOOK_SIGNATURE";
  override readonly httpStatus = 401;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** The error a client sees for `err`: ours as it is, a Koa/formidable client error as ours; else none. */
function asJsonable(err: unknown): JsonableError | undefined {
  if (err instanceof JsonableError) return err;
  const e = err as HttpLikeError | null;
  const status = e?.status ?? e?.statusCode;
  if (typeof status !== "number" || status >= 500) return undefined;
  if (status === 404) return new NotFoundError();
  if (status === 405) return new MethodNotAllowedError([]);
  if (status === 413) return new RequestTooLargeError(0);
  // Other client errors from Koa/formidable (a malformed multipart body, …): a plain 400.
  return new JsonableError(e?.expose === true && e.message ? e.message : "Bad request");
}

/** What is written for an error: by the error middleware, and recorded as such in the delivery log. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The error as the client sees it; undefined for an unexpected one (a generic 500, logged). */
  jsonable: JsonableError | undefined;
}

export function errorAnswer(err: unknown): ErrorAnswer {
  const jsonable = asJsonable(err);
  if (jsonable === undefined) {
    return {
      status: 500,
      headers: {},
      body: { result: "error", msg: "Internal server error" },
      jsonable,
    };
  }
  return { status: jsonable.httpStatus, headers: jsonable.headers(), body: jsonable.toJSON(), jsonable };
}
