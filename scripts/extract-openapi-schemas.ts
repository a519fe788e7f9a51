/**
 * Extracts, from Zulip's published OpenAPI description, the response schemas of the endpoints this
 * server implements, and writes them to test/data/openapi-schemas.json for the HTTP tests
 * (test/helpers/openapi.ts validates every response the tests see against them).
 *
 *   node bin/run-ts.js scripts/extract-openapi-schemas.ts [path-to-zulip-openapi.yaml]
 *
 * Default input: ../shared/reference/zulip-openapi.yaml. What it does to Zulip's schemas:
 * - keeps structure only: descriptions, examples, `deprecated`, `default`, `title`, `format` and
 *   `x-*` keys are dropped (an unknown keyword stops the script);
 * - resolves every `$ref` (schemas and shared responses) inline;
 * - turns OpenAPI 3.0 `nullable: true` into JSON Schema (`type: [T, "null"]`, `null` in an `enum`);
 * - turns `oneOf` into `anyOf`: Zulip lists overlapping alternatives (identical error schemas, an
 *   `integer` that is also a `number`), which `oneOf` would reject;
 * - relaxes `required` for fields Zulip added after the feature level we report (src/config.ts);
 * - applies the OVERRIDES below, each with its reason, where our spec (seed-api.md) asks for older
 *   field names or shapes than Zulip's current API. The list is written into the JSON as well.
 *
 * The script fails when an endpoint, a `$ref` or an override's target is missing, so a change to the
 * YAML cannot silently drop a check.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "prettier";
import { parse } from "yaml";
import { ZULIP_FEATURE_LEVEL } from "../src/config.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const inputPath = path.resolve(
  process.argv[2] ?? path.join(repoRoot, "../shared/reference/zulip-openapi.yaml"),
);
const outputPath = path.join(repoRoot, "test/data/openapi-schemas.json");

/** Method and path template as our server serves them (under /api/v1), and where Zulip documents them. */
interface EndpointSpec {
  method: string;
  path: string;
  /** Zulip's path/method when it differs from ours (a legacy endpoint documented under a newer one). */
  zulip?: { method: string; path: string };
}

const ENDPOINTS: EndpointSpec[] = [
  { method: "POST", path: "/fetch_api_key" },
  { method: "GET", path: "/server_settings" },
  { method: "GET", path: "/users" },
  { method: "POST", path: "/users" },
  { method: "GET", path: "/users/me" },
  { method: "GET", path: "/users/{user_id}" },
  { method: "GET", path: "/users/{email}" },
  { method: "GET", path: "/realm/profile_fields" },
  { method: "POST", path: "/realm/profile_fields" },
  { method: "PATCH", path: "/realm/profile_fields" },
  { method: "GET", path: "/users/me/subscriptions" },
  { method: "POST", path: "/users/me/subscriptions" },
  { method: "DELETE", path: "/users/me/subscriptions" },
  { method: "POST", path: "/users/me/subscriptions/properties" },
  { method: "PATCH", path: "/users/me/subscriptions/muted_topics" },
  { method: "GET", path: "/users/me/{stream_id}/topics" },
  { method: "GET", path: "/streams" },
  { method: "GET", path: "/streams/{stream_id}" },
  { method: "GET", path: "/streams/{stream_id}/members" },
  { method: "PATCH", path: "/streams/{stream_id}" },
  { method: "DELETE", path: "/streams/{stream_id}" },
  { method: "GET", path: "/streams/{stream_id}/email_address" },
  { method: "POST", path: "/default_streams" },
  { method: "GET", path: "/users/{user_id}/subscriptions/{stream_id}" },
  { method: "GET", path: "/get_stream_id" },
  { method: "POST", path: "/messages" },
  { method: "GET", path: "/messages" },
  { method: "GET", path: "/messages/{message_id}" },
  { method: "PATCH", path: "/messages/{message_id}" },
  { method: "DELETE", path: "/messages/{message_id}" },
  { method: "GET", path: "/messages/{message_id}/history" },
  { method: "GET", path: "/messages/matches_narrow" },
  { method: "POST", path: "/messages/render" },
  { method: "POST", path: "/messages/{message_id}/reactions" },
  { method: "DELETE", path: "/messages/{message_id}/reactions" },
  { method: "POST", path: "/user_uploads" },
  { method: "GET", path: "/attachments" },
  { method: "POST", path: "/messages/flags" },
  { method: "POST", path: "/messages/flags/narrow" },
  { method: "GET", path: "/messages/{message_id}/read_receipts" },
  { method: "POST", path: "/user_topics" },
  { method: "POST", path: "/users/me/apns_device_token" },
  { method: "DELETE", path: "/users/me/apns_device_token" },
  { method: "POST", path: "/users/me/android_gcm_reg_id" },
  { method: "DELETE", path: "/users/me/android_gcm_reg_id" },
  { method: "POST", path: "/mark_all_as_read" },
  { method: "POST", path: "/mark_stream_as_read" },
  { method: "POST", path: "/mark_topic_as_read" },
  { method: "PATCH", path: "/settings/notifications", zulip: { method: "PATCH", path: "/settings" } },
  { method: "POST", path: "/register" },
  { method: "GET", path: "/events" },
  { method: "DELETE", path: "/events" },
  { method: "POST", path: "/users/me/presence" },
  { method: "GET", path: "/realm/presence" },
  { method: "GET", path: "/users/{user_id_or_email}/presence" },
  { method: "POST", path: "/typing" },
  { method: "POST", path: "/users/me/status" },
  { method: "GET", path: "/user_groups" },
  { method: "POST", path: "/user_groups/create" },
  { method: "PATCH", path: "/user_groups/{user_group_id}" },
  { method: "POST", path: "/user_groups/{user_group_id}/members" },
  { method: "GET", path: "/user_groups/{user_group_id}/members" },
  { method: "GET", path: "/user_groups/{user_group_id}/members/{user_id}" },
  { method: "PATCH", path: "/users/{user_id}" },
  { method: "DELETE", path: "/users/{user_id}" },
  { method: "DELETE", path: "/users/me" },
  { method: "POST", path: "/users/{user_id}/reactivate" },
  { method: "GET", path: "/users/me/alert_words" },
  { method: "POST", path: "/users/me/alert_words" },
  { method: "DELETE", path: "/users/me/alert_words" },
  { method: "POST", path: "/users/me/muted_users/{muted_user_id}" },
  { method: "DELETE", path: "/users/me/muted_users/{muted_user_id}" },
  { method: "GET", path: "/realm/linkifiers" },
  { method: "POST", path: "/realm/filters" },
  { method: "PATCH", path: "/realm/filters/{filter_id}" },
  { method: "DELETE", path: "/realm/filters/{filter_id}" },
  { method: "PATCH", path: "/settings" },
  { method: "GET", path: "/realm/emoji" },
  { method: "POST", path: "/realm/emoji/{emoji_name}" },
  { method: "DELETE", path: "/realm/emoji/{emoji_name}" },
  { method: "GET", path: "/user_groups/{user_group_id}/subgroups" },
  { method: "POST", path: "/user_groups/{user_group_id}/subgroups" },
  { method: "GET", path: "/drafts" },
  { method: "POST", path: "/drafts" },
  { method: "PATCH", path: "/drafts/{draft_id}" },
  { method: "DELETE", path: "/drafts/{draft_id}" },
  { method: "GET", path: "/saved_snippets" },
  { method: "POST", path: "/saved_snippets" },
  { method: "PATCH", path: "/saved_snippets/{saved_snippet_id}" },
  { method: "DELETE", path: "/saved_snippets/{saved_snippet_id}" },
  { method: "GET", path: "/scheduled_messages" },
  { method: "POST", path: "/scheduled_messages" },
  { method: "PATCH", path: "/scheduled_messages/{scheduled_message_id}" },
  { method: "DELETE", path: "/scheduled_messages/{scheduled_message_id}" },
];

/**
 * Endpoints we serve that Zulip's OpenAPI does not document (Zulip's own web app uses them, with no
 * published schema): their responses are not validated. Listed here so the JSON says so explicitly.
 */
const UNDOCUMENTED = [
  "GET /bots",
  "POST /bots",
  "PATCH /bots/{bot_id}",
  "PUT /bot_storage",
  "GET /bot_storage",
  "DELETE /bot_storage",
  "PATCH /users/me/profile_data",
  "GET /integrations",
  "POST /external/{integration_name}",
  // Zulip 10.0 (feature level 340) replaced it by POST /user_groups/{id}/deactivate; Zulip 6 had it.
  "DELETE /user_groups/{user_group_id}",
  // Zulip's legacy linkifier list (zulip-js filters.retrieve); no longer documented.
  "GET /realm/filters",
];

/** The notification settings of PATCH /settings/notifications (seed-api.md, "Update notification settings"). */
const NOTIFICATION_SETTINGS = [
  "enable_stream_desktop_notifications",
  "enable_stream_email_notifications",
  "enable_stream_push_notifications",
  "enable_stream_audible_notifications",
  "notification_sound",
  "enable_desktop_notifications",
  "enable_sounds",
  "enable_offline_email_notifications",
  "enable_offline_push_notifications",
  "enable_online_push_notifications",
  "enable_digest_emails",
  "enable_login_emails",
  "message_content_in_email_notifications",
  "pm_content_in_desktop_notifications",
  "wildcard_mentions_notify",
  "desktop_icon_count_display",
  "realm_name_in_notifications",
];

// ---------------------------------------------------------------------------------------------
// Reading the YAML

const yamlText = readFileSync(inputPath, "utf8");
const doc = parse(yamlText, { maxAliasCount: -1 }) as Schema;

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function obj(v: Json | undefined, what: string): Schema {
  if (!isObject(v)) throw new Error(`Expected an object at ${what}`);
  return v;
}

function resolvePointer(ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`Unsupported $ref ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !(key in node)) throw new Error(`Dangling $ref ${ref}`);
    node = node[key] as Json;
  }
  return node;
}

function operation(method: string, p: string): Schema {
  const item = obj(obj(doc["paths"], "paths")[p], `paths.${p}`);
  return obj(item[method.toLowerCase()], `${method} ${p}`);
}

// ---------------------------------------------------------------------------------------------
// Cleaning: structure only, $refs resolved, OpenAPI 3.0 → JSON Schema

const KEPT_KEYWORDS = new Set([
  "type",
  "enum",
  "properties",
  "additionalProperties",
  "items",
  "required",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
]);
const DROPPED_KEYWORDS = new Set([
  "description",
  "example",
  "examples",
  "deprecated",
  "default",
  "title",
  "format",
]);

/** Fields whose description says they are new in a feature level above ours, by schema location. */
const newerFields: { where: string; field: string; featureLevel: number }[] = [];

/** The descriptions of a schema, its $ref target and its allOf branches, joined. */
function descriptionOf(schema: Json | undefined): string | undefined {
  if (!isObject(schema)) return undefined;
  const parts: string[] = [];
  if (typeof schema["description"] === "string") parts.push(schema["description"]);
  const ref = schema["$ref"];
  if (typeof ref === "string") parts.push(descriptionOf(resolvePointer(ref)) ?? "");
  const branches = schema["allOf"];
  if (Array.isArray(branches)) for (const b of branches) parts.push(descriptionOf(b) ?? "");
  const text = parts.filter((p) => p !== "").join("\n");
  return text === "" ? undefined : text;
}

function mergeProperties(a: Record<string, Json[]>, b: Record<string, Json[]>): Record<string, Json[]> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

function featureLevelOf(schema: Json | undefined): number | undefined {
  const description = descriptionOf(schema);
  if (description === undefined) return undefined;
  const m = /New in Zulip [\d.]+ \(feature level (\d+)\)/.exec(description);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/**
 * Every (raw) schema given for each property of an object schema, through $refs and allOf branches:
 * Zulip often lists `required` in one allOf branch and describes the properties in another.
 */
function rawProperties(node: Json | undefined, seen: string[] = []): Record<string, Json[]> {
  const out: Record<string, Json[]> = {};
  const add = (more: Record<string, Json[]>): void => {
    for (const [k, v] of Object.entries(more)) out[k] = [...(out[k] ?? []), ...v];
  };
  if (!isObject(node)) return out;
  const ref = node["$ref"];
  if (typeof ref === "string")
    return seen.includes(ref) ? out : rawProperties(resolvePointer(ref), [...seen, ref]);
  const branches = node["allOf"];
  if (Array.isArray(branches)) for (const b of branches) add(rawProperties(b, seen));
  const own = node["properties"];
  if (isObject(own)) add(Object.fromEntries(Object.entries(own).map(([k, v]) => [k, [v]])));
  return out;
}

function clean(
  node: Json,
  where: string,
  stack: string[] = [],
  siblings: Record<string, Json[]> = {},
): Schema {
  if (!isObject(node)) throw new Error(`Expected a schema at ${where}`);
  const ref = node["$ref"];
  if (typeof ref === "string") {
    if (stack.includes(ref)) throw new Error(`Recursive $ref ${ref} at ${where}`);
    return clean(resolvePointer(ref), ref, [...stack, ref], siblings);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" || DROPPED_KEYWORDS.has(key) || key.startsWith("x-")) continue;
    if (!KEPT_KEYWORDS.has(key)) throw new Error(`Unknown schema keyword "${key}" at ${where}`);
    if (key === "properties") {
      const props: Schema = {};
      for (const [name, sub] of Object.entries(obj(value, `${where}.properties`))) {
        props[name] = clean(sub, `${where}.${name}`, stack);
      }
      out[key] = props;
    } else if (key === "items" || key === "not" || (key === "additionalProperties" && isObject(value))) {
      out[key] = clean(value, `${where}.${key}`, stack);
    } else if (key === "allOf" || key === "anyOf" || key === "oneOf") {
      if (!Array.isArray(value)) throw new Error(`Expected a list at ${where}.${key}`);
      const shared = key === "allOf" ? mergeProperties(siblings, rawProperties(node)) : {};
      const branches = value.map((b, i) => clean(b, `${where}.${key}[${i}]`, stack, shared));
      const target = key === "oneOf" ? "anyOf" : key;
      out[target] = branches;
    } else {
      out[key] = value;
    }
  }
  // Relax `required` for fields newer than the feature level we report.
  const required = out["required"];
  const properties = mergeProperties(siblings, rawProperties(node));
  if (Array.isArray(required)) {
    const kept = required.filter((name) => {
      const levels = typeof name === "string" ? (properties[name] ?? []).map(featureLevelOf) : [];
      const known = levels.filter((l): l is number => l !== undefined);
      const level = known.length === 0 ? undefined : Math.max(...known);
      if (level !== undefined && level > ZULIP_FEATURE_LEVEL && typeof name === "string") {
        if (!newerFields.some((f) => f.where === where && f.field === name)) {
          newerFields.push({ where, field: name, featureLevel: level });
        }
        return false;
      }
      return true;
    });
    if (kept.length === 0) delete out["required"];
    else out["required"] = kept;
  }
  if (node["nullable"] === true) return nullable(out);
  return out;
}

function nullable(schema: Schema): Schema {
  const { type, enum: values } = schema;
  if (Array.isArray(values) && !values.includes(null)) schema["enum"] = [...values, null];
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  if (Array.isArray(type)) return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  if (Array.isArray(values)) return schema;
  // No type of its own (a lone `nullable`, or composed with allOf/anyOf): also accept null.
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [{ type: "null" }, schema] };
}

function responseSchema(response: Json, where: string): Schema | undefined {
  let r = response;
  if (isObject(r) && typeof r["$ref"] === "string") r = resolvePointer(r["$ref"]);
  if (!isObject(r)) throw new Error(`Expected a response at ${where}`);
  const content = r["content"];
  if (!isObject(content)) return undefined;
  const json = content["application/json"];
  if (!isObject(json) || json["schema"] === undefined) return undefined;
  return clean(json["schema"], where);
}

// ---------------------------------------------------------------------------------------------
// Overrides: where the spec wins over Zulip's newer API

interface Override {
  endpoint: string;
  change: string;
  reason: string;
  apply(responses: Record<string, Schema>): void;
}

/**
 * Visits the object schemas that define the properties at `propertyPath` below `schema`, looking
 * through allOf/anyOf branches (Zulip writes objects as allOf[base, {additionalProperties: false}]).
 * A path element "[]" steps into array items.
 */
function objectSchemasAt(schema: Schema, propertyPath: string[]): Schema[] {
  const found: Schema[] = [];
  const visit = (s: Json | undefined, rest: string[]): void => {
    if (!isObject(s)) return;
    for (const key of ["allOf", "anyOf"]) {
      const branches = s[key];
      if (Array.isArray(branches)) for (const b of branches) visit(b, rest);
    }
    if (rest.length === 0) {
      if (isObject(s["properties"]) || s["additionalProperties"] !== undefined || s["type"] === "object") {
        found.push(s);
      }
      return;
    }
    const [head, ...tail] = rest;
    if (head === "[]") {
      visit(s["items"], tail);
    } else if (head !== undefined && isObject(s["properties"])) {
      visit(s["properties"][head], tail);
    }
  };
  visit(schema, propertyPath);
  return found;
}

/** Allows `name` (with `propSchema`) in every closed object schema at `propertyPath`. */
function allowProperty(schema: Schema, propertyPath: string[], name: string, propSchema: Schema): void {
  const targets = objectSchemasAt(schema, propertyPath).filter((s) => s["additionalProperties"] === false);
  if (targets.length === 0)
    throw new Error(`No closed object at ${propertyPath.join(".") || "(top)"} for ${name}`);
  for (const t of targets) {
    const props = isObject(t["properties"]) ? t["properties"] : {};
    props[name] = propSchema;
    t["properties"] = props;
  }
}

/** Drops `name` from `required` of every object schema at `propertyPath`. */
function dropRequired(schema: Schema, propertyPath: string[], name: string): void {
  let dropped = false;
  for (const t of objectSchemasAt(schema, propertyPath)) {
    const req = t["required"];
    if (Array.isArray(req) && req.includes(name)) {
      const kept = req.filter((r) => r !== name);
      if (kept.length === 0) delete t["required"];
      else t["required"] = kept;
      dropped = true;
    }
  }
  if (!dropped) throw new Error(`"${name}" is not required at ${propertyPath.join(".") || "(top)"}`);
}

function requestBodyProperty(method: string, p: string, name: string): Schema {
  const op = operation(method, p);
  const body = obj(op["requestBody"], `${method} ${p} requestBody`);
  const content = obj(body["content"], `${method} ${p} requestBody.content`);
  const form = obj(content["application/x-www-form-urlencoded"], `${method} ${p} form`);
  const schema = obj(form["schema"], `${method} ${p} form schema`);
  const props = obj(schema["properties"], `${method} ${p} form properties`);
  if (props[name] === undefined) throw new Error(`${method} ${p} has no request parameter ${name}`);
  return clean(props[name], `${method} ${p} requestBody.${name}`);
}

function success(responses: Record<string, Schema>, endpoint: string): Schema {
  const s = responses["200"];
  if (s === undefined) throw new Error(`${endpoint} has no 200 schema`);
  return s;
}

/** Zulip 11's Reminder object (feature levels 381, 399): GET /reminders, register, `reminders` events. */
const REMINDER: Schema = {
  type: "object",
  additionalProperties: false,
  required: [
    "reminder_id",
    "type",
    "to",
    "content",
    "rendered_content",
    "scheduled_delivery_timestamp",
    "failed",
    "reminder_target_message_id",
  ],
  properties: {
    reminder_id: { type: "integer" },
    type: { type: "string", enum: ["private"] },
    to: { type: "array", items: { type: "integer" } },
    content: { type: "string" },
    rendered_content: { type: "string" },
    scheduled_delivery_timestamp: { type: "integer" },
    failed: { type: "boolean" },
    reminder_target_message_id: { type: "integer" },
  },
};

/** The list of alternatives GET /events allows for one event (`events` items' anyOf). */
function eventAlternatives(schema: Schema): Json[] {
  for (const branch of Array.isArray(schema["allOf"]) ? schema["allOf"] : [schema]) {
    if (!isObject(branch) || !isObject(branch["properties"])) continue;
    const events = branch["properties"]["events"];
    if (isObject(events) && isObject(events["items"]) && Array.isArray(events["items"]["anyOf"])) {
      return events["items"]["anyOf"];
    }
  }
  throw new Error("No event alternatives in GET /events");
}

const OVERRIDES: Override[] = [
  {
    endpoint: "POST /users/me/subscriptions/properties",
    change: "200 may carry `subscription_data` (the list as sent, typed as Zulip's request parameter)",
    reason:
      'seed-api.md: "Response field: `subscription_data`, the same list as sent, confirming the changes." ' +
      "Zulip stopped echoing it and documents no response field.",
    apply(r) {
      const data = requestBodyProperty("POST", "/users/me/subscriptions/properties", "subscription_data");
      allowProperty(success(r, this.endpoint), [], "subscription_data", data);
    },
  },
  {
    endpoint: "PATCH /settings/notifications",
    change:
      "schema taken from PATCH /settings; 200 may carry each notification setting of seed-api.md, typed as " +
      "Zulip's PATCH /settings request parameter of that name (`realm_name_in_notifications`, which Zulip " +
      "replaced by `realm_name_in_email_notifications_policy`, as a boolean)",
    reason:
      "seed-api.md: the legacy endpoint answers with the settings that changed, each with its new value. " +
      "Zulip documents only the newer PATCH /settings, which answers with `ignored_parameters_unsupported`.",
    apply(r) {
      const s = success(r, this.endpoint);
      for (const name of NOTIFICATION_SETTINGS) {
        const prop =
          name === "realm_name_in_notifications"
            ? { type: "boolean" }
            : requestBodyProperty("PATCH", "/settings", name);
        allowProperty(s, [], name, prop);
      }
    },
  },
  {
    endpoint: "GET /messages",
    change:
      "message objects may carry `subject_links`, `sender_short_name`, and `short_name` in `display_recipient` entries",
    reason:
      "seed-api.md's Message table lists `subject_links` (Zulip renamed it `topic_links`), `sender_short_name` " +
      "and recipients' `short_name` (both removed from Zulip's messages).",
    apply(r) {
      allowMessageLegacyFields(success(r, this.endpoint), ["messages", "[]"]);
    },
  },
  {
    endpoint: "GET /messages/{message_id}",
    change: "as GET /messages, for `message`",
    reason: "Same message object as GET /messages (seed-api.md's Message table).",
    apply(r) {
      allowMessageLegacyFields(success(r, this.endpoint), ["message"]);
    },
  },
  {
    endpoint: "GET /events",
    change: "`message` events may carry the legacy message fields above",
    reason: "seed-api.md, Events 3: a `message` event holds a Message object of its Message table.",
    apply(r) {
      allowMessageLegacyFields(success(r, this.endpoint), ["events", "[]", "message"]);
    },
  },
  {
    endpoint: "GET /events",
    change: "`message` events may carry `local_message_id` (string)",
    reason:
      "Zulip adds it to the sender's own queue when POST /messages names that queue (`queue_id`) and a " +
      "`local_id`, so the client can match its local echo; the YAML leaves it undocumented. The mobile " +
      "app reads it (zulip-flutter's MessageEvent.localMessageId).",
    apply(r) {
      let changed = 0;
      for (const event of objectSchemasAt(success(r, this.endpoint), ["events", "[]"])) {
        const props = isObject(event["properties"]) ? event["properties"] : undefined;
        if (props === undefined || !isObject(props["message"])) continue;
        if (!JSON.stringify(props["type"] ?? null).includes('"message"')) continue;
        props["local_message_id"] = { type: "string" };
        changed += 1;
      }
      if (changed === 0) throw new Error("No message event schema in GET /events");
    },
  },
  {
    endpoint: "GET /events",
    change: "`reminders` events (op `add` with `reminders`, op `remove` with `reminder_id`)",
    reason:
      "Zulip 11.0, feature level 399 (the API changelog, paraphrased): `reminders` events tell a user's " +
      "clients of the reminders they create and delete. The YAML this file is extracted from is older " +
      "(feature level 369); we report a later level.",
    apply(r) {
      const items = eventAlternatives(success(r, this.endpoint));
      const type = { type: "string", enum: ["reminders"] };
      items.push(
        {
          type: "object",
          additionalProperties: false,
          required: ["id", "type", "op", "reminders"],
          properties: {
            id: { type: "integer" },
            type,
            op: { type: "string", enum: ["add"] },
            reminders: { type: "array", items: REMINDER },
          },
        },
        {
          type: "object",
          additionalProperties: false,
          required: ["id", "type", "op", "reminder_id"],
          properties: {
            id: { type: "integer" },
            type,
            op: { type: "string", enum: ["remove"] },
            reminder_id: { type: "integer" },
          },
        },
      );
    },
  },
  {
    endpoint: "POST /register",
    change: "may carry `reminders` (the Reminder objects of GET /reminders)",
    reason:
      "Zulip 11.0, feature level 399 (the API changelog, paraphrased): register answers `reminders` " +
      "when asked for them. The YAML this file is extracted from is older (feature level 369).",
    apply(r) {
      allowProperty(success(r, this.endpoint), [], "reminders", { type: "array", items: REMINDER });
    },
  },
  {
    endpoint: "POST /mark_all_as_read",
    change: "`complete` is not required",
    reason:
      'seed-api.md: "Response: `result`, `msg` only." `complete` came with Zulip 8.0 (feature level 211), ' +
      "per the endpoint's Changes notes; the field's own description gives no feature level.",
    apply(r) {
      dropRequired(success(r, this.endpoint), [], "complete");
    },
  },
  ...["GET /users", "GET /users/{user_id}", "GET /users/{email}"].map((endpoint): Override => ({
    endpoint,
    change: "user objects may carry `bot_owner` (string, the owner's email)",
    reason:
      "seed-api.md's User table: `bot_owner / bot_owner_id`, the creator's email or ID. Zulip's User " +
      'schema notes: "In previous versions, there was a `bot_owner` field containing the email".',
    apply(r) {
      const at = endpoint === "GET /users" ? ["members", "[]"] : ["user"];
      allowProperty(success(r, endpoint), at, "bot_owner", { type: "string" });
    },
  })),
  {
    endpoint: "POST /register",
    change:
      "`realm_incoming_webhook_bots[]` may carry `url_options` (the WebhookConfigOption shape: key, label, validator)",
    reason:
      'Zulip 11.0, feature level 403 (the API changelog): "Added a `url_options` object to the ' +
      '`realm_incoming_webhook_bots` object for incoming webhook integration URL parameter options." ' +
      "The YAML this file is extracted from is older (feature level 369); we report a later level.",
    apply(r) {
      const option = {
        type: "object",
        additionalProperties: false,
        required: ["key", "label", "validator"],
        properties: { key: { type: "string" }, label: { type: "string" }, validator: { type: "string" } },
      };
      allowProperty(success(r, this.endpoint), ["realm_incoming_webhook_bots", "[]"], "url_options", {
        type: "array",
        items: option,
      });
    },
  },
  {
    endpoint: "GET /server_settings",
    change: "may carry `service_version` (string)",
    reason:
      "seed-api.md lists `service_version` (and Versioning 2: the server reports its version there); " +
      "Zulip's current description no longer has it.",
    apply(r) {
      allowProperty(success(r, this.endpoint), [], "service_version", { type: "string" });
    },
  },
  ...["POST /users/me/subscriptions", "DELETE /users/me/subscriptions"].map((endpoint): Override => ({
    endpoint,
    change:
      'adds a 403 error: CodedError with code "UNAUTHORIZED_PRINCIPAL" and `principal` (string or integer)',
    reason:
      "Zulip's description of these endpoints: before Zulip 8.0 (feature level 208), a " +
      'principal that does not exist or is deactivated got HTTP 403 with `code: "UNAUTHORIZED_PRINCIPAL"`. ' +
      "Zulip's UnauthorizedPrincipalError carries the principal as a data field, which the YAML omits. " +
      "We keep that answer (docs/compat.md, level 208).",
    apply(r) {
      r["403"] = {
        type: "object",
        required: ["result", "msg", "code", "principal"],
        additionalProperties: false,
        properties: {
          result: { enum: ["error"] },
          msg: { type: "string" },
          code: { enum: ["UNAUTHORIZED_PRINCIPAL"] },
          principal: { type: ["string", "integer"] },
        },
      };
    },
  })),
];

/**
 * Fields Zulip had at the feature level we report (src/config.ts) and later renamed or removed: a
 * client of that level expects them. Each cites the sentence of Zulip's YAML that says so; the
 * script checks that the sentence is there.
 */
const LEGACY_FIELDS: { endpoint: string; at: string[]; name: string; schema: Schema; evidence: string }[] = [
  {
    endpoint: "POST /register",
    at: [],
    name: "realm_notifications_stream_id",
    schema: { type: "integer" },
    evidence: "In Zulip 9.0 (feature level 241), renamed 'realm_notifications_stream_id'",
  },
  {
    endpoint: "POST /register",
    at: [],
    name: "realm_name_in_notifications",
    schema: { type: "boolean" },
    evidence: "In Zulip 7.0 (feature level 168), replaced previous\n`realm_name_in_notifications`",
  },
  {
    endpoint: "POST /register",
    at: ["user_settings"],
    name: "realm_name_in_notifications",
    schema: { type: "boolean" },
    evidence: "In Zulip 7.0 (feature level 168), replaced previous\n`realm_name_in_notifications`",
  },
  {
    endpoint: "POST /register",
    at: [],
    name: "is_billing_admin",
    schema: { type: "boolean" },
    evidence: "Removed `is_billing_admin` field in Zulip 10.0 (feature level 363)",
  },
];

for (const f of LEGACY_FIELDS) {
  const normalized = yamlTextWithoutIndent();
  if (!normalized.includes(f.evidence))
    throw new Error(`Evidence for legacy field ${f.name} not found: ${f.evidence}`);
  OVERRIDES.push({
    endpoint: f.endpoint,
    change: `may carry \`${[...f.at, f.name].join(".")}\` (${JSON.stringify(f.schema)})`,
    reason: `A field of Zulip at our feature level, renamed or removed later. Zulip's YAML: "${f.evidence.replace(/\n/g, " ")}".`,
    apply(r) {
      allowProperty(success(r, f.endpoint), f.at, f.name, f.schema);
    },
  });
}

function yamlTextWithoutIndent(): string {
  return yamlText.replace(/\n[ \t]+/g, "\n");
}

/** Changes to the errors every endpoint may answer with (commonErrors, below). */
const COMMON_ERROR_OVERRIDES = [
  {
    schema: "RateLimitedError",
    change: "`retry-after` is a number, not only an integer",
    reason:
      'The YAML\'s own example of RateLimitedError has `"retry-after": 28.706807374954224`; Zulip sends ' +
      "the fractional number of seconds, and so do we.",
  },
  {
    schema: "CodedErrorBase",
    change:
      "an error that no closed error schema accepts is checked against CodedErrorBase (result, msg, code " +
      "required) with the data fields the YAML documents typed, other fields allowed",
    reason:
      "Zulip's errors carry data fields (JsonableError.data_fields: var_name, stream, queue_id, principal, " +
      "desc, bad_value, …); the YAML documents only some of them in closed schemas.",
  },
];

function allowMessageLegacyFields(schema: Schema, at: string[]): void {
  allowProperty(schema, at, "subject_links", { type: "array" });
  allowProperty(schema, at, "sender_short_name", { type: "string" });
  allowProperty(schema, [...at, "display_recipient", "[]"], "short_name", { type: "string" });
}

// ---------------------------------------------------------------------------------------------
// Assembling the output

const endpoints: Record<string, { zulip: string; responses: Record<string, Schema> }> = {};
for (const e of ENDPOINTS) {
  const zulip = e.zulip ?? { method: e.method, path: e.path };
  const op = operation(zulip.method, zulip.path);
  const responses: Record<string, Schema> = {};
  for (const [status, response] of Object.entries(
    obj(op["responses"], `${zulip.method} ${zulip.path} responses`),
  )) {
    const schema = responseSchema(response, `${zulip.method} ${zulip.path} ${status}`);
    if (schema !== undefined) responses[status] = schema;
  }
  if (responses["200"] === undefined) throw new Error(`${zulip.method} ${zulip.path} has no 200 JSON schema`);
  endpoints[`${e.method} ${e.path}`] = { zulip: `${zulip.method} ${zulip.path}`, responses };
}

/**
 * Endpoints newer than the YAML (feature level 369), written from Zulip's API changelog and endpoint
 * pages: their success bodies, closed as Zulip's are; errors are checked against the common ones.
 */
const successWith = (properties: Record<string, Json>, required: string[]): Schema => ({
  type: "object",
  additionalProperties: false,
  required: ["result", "msg", ...required],
  properties: {
    result: { enum: ["success"] },
    msg: { type: "string" },
    ignored_parameters_unsupported: { type: "array", items: { type: "string" } },
    ...properties,
  },
});
const NEWER_ENDPOINTS: [endpoint: string, changelog: string, success: Schema][] = [
  [
    "POST /reminders",
    "Zulip 11.0, feature level 381 (the API changelog, paraphrased): POST /reminders schedules a reminder for a message.",
    successWith({ reminder_id: { type: "integer" } }, ["reminder_id"]),
  ],
  [
    "GET /reminders",
    "Zulip 11.0, feature level 399 (the API changelog, paraphrased): GET /reminders lists the user's reminders.",
    successWith({ reminders: { type: "array", items: REMINDER } }, ["reminders"]),
  ],
  [
    "DELETE /reminders/{reminder_id}",
    "Zulip 11.0, feature level 399 (the API changelog, paraphrased): DELETE /reminders/{reminder_id} deletes one.",
    successWith({}, []),
  ],
  [
    "POST /messages/{message_id}/report",
    "Zulip 11.0, feature level 382 (the API changelog, paraphrased): POST /messages/{message_id}/report reports a message.",
    successWith({}, []),
  ],
];
for (const [endpoint, , schema] of NEWER_ENDPOINTS) {
  endpoints[endpoint] = { zulip: `${endpoint} (newer than the YAML)`, responses: { "200": schema } };
}

for (const o of OVERRIDES) {
  const e = endpoints[o.endpoint];
  if (e === undefined) throw new Error(`Override for unknown endpoint ${o.endpoint}`);
  o.apply(e.responses);
}

/**
 * Errors any endpoint may answer with: Zulip's error vocabulary (every components/schemas/*Error,
 * which includes the common ones of its "Error handling" page). An endpoint's own error schemas are
 * examples, not an exhaustive list, so an error response is checked against them and these.
 *
 * Last of these comes CodedErrorBase, open: Zulip's errors carry data fields (its JsonableError
 * `data_fields`: var_name, stream, queue_id, principal, desc, bad_value, …) and the YAML documents
 * only a few of them. The data fields it does document keep their types there.
 */
const errorSchemaNames = Object.keys(obj(obj(doc["components"], "components")["schemas"], "schemas")).filter(
  (n) => n.endsWith("Error"),
);
const closedErrors = errorSchemaNames.map((n) => {
  const schema = clean({ $ref: `#/components/schemas/${n}` }, n);
  if (n === "RateLimitedError") {
    const [closed] = objectSchemasAt(schema, []).filter(
      (t) => isObject(t["properties"]) && "retry-after" in t["properties"],
    );
    if (closed === undefined || !isObject(closed["properties"]))
      throw new Error("RateLimitedError has no retry-after");
    closed["properties"]["retry-after"] = { type: "number" };
  }
  return schema;
});
const documentedDataFields: Schema = {};
for (const schema of closedErrors) {
  for (const t of objectSchemasAt(schema, [])) {
    if (t["additionalProperties"] !== false || !isObject(t["properties"])) continue;
    for (const [name, prop] of Object.entries(t["properties"])) {
      if (["result", "msg", "code"].includes(name) || !isObject(prop) || Object.keys(prop).length === 0)
        continue;
      const known = documentedDataFields[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(prop)) {
        throw new Error(`Error data field ${name} has two schemas`);
      }
      documentedDataFields[name] = prop;
    }
  }
}
const openError: Schema = {
  allOf: [
    clean({ $ref: "#/components/schemas/CodedErrorBase" }, "CodedErrorBase"),
    { properties: documentedDataFields },
  ],
};
const commonErrors: Schema = { anyOf: [...closedErrors, openError] };

const output = {
  $comment:
    "Generated by scripts/extract-openapi-schemas.ts from Zulip's OpenAPI description; do not edit by hand. " +
    "Keys of `endpoints` are our method and path template under /api/v1.",
  source: {
    file: path.basename(inputPath),
    sha256: createHash("sha256").update(yamlText).digest("hex"),
    openapi: doc["openapi"] ?? null,
  },
  featureLevel: ZULIP_FEATURE_LEVEL,
  overrides: [
    ...OVERRIDES.map(({ endpoint, change, reason }) => ({ endpoint, change, reason })),
    ...NEWER_ENDPOINTS.map(([endpoint, reason]) => ({
      endpoint,
      change: "a new endpoint: its success body, written out (the YAML is older)",
      reason,
    })),
    ...COMMON_ERROR_OVERRIDES.map(({ schema, change, reason }) => ({
      endpoint: `(every error) ${schema}`,
      change,
      reason,
    })),
  ],
  relaxedNewerRequiredFields: newerFields,
  transformations: [
    "descriptions, examples, deprecated, default, format and x-* keys dropped",
    "$ref resolved inline",
    "nullable: true → type [T, null] / null in enum / anyOf with {type: null}",
    "oneOf → anyOf (Zulip lists overlapping alternatives)",
    "required relaxed for fields new in a feature level above featureLevel",
  ],
  undocumented: UNDOCUMENTED,
  commonErrors,
  endpoints,
};

mkdirSync(path.dirname(outputPath), { recursive: true });
// Formatted as `prettier --check .` expects it.
writeFileSync(outputPath, await format(JSON.stringify(output), { parser: "json" }));
process.stdout.write(
  `Wrote ${path.relative(process.cwd(), outputPath)}: ${Object.keys(endpoints).length} endpoints, ` +
    `${OVERRIDES.length} overrides, ${newerFields.length} relaxed newer required fields\n`,
);
