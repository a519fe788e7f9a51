import { XMLParser, XMLValidator } from "fast-xml-parser";
import { InvalidJsonError, InvalidPayloadError } from "../../src/errors.js";
import { Wild } from "../kit/index.js";
import type { BodyReader } from "../kit/index.js";

/**
 * Pivotal Tracker posts activity as XML (API v3) or JSON (API v5), whatever the Content-Type
 * says. The payload becomes `{ format: "v3", activity: {...} }` (element texts as strings) or the
 * v5 JSON object with `format: "v5"` beside it.
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

export function readXmlActivity(text: string): Record<string, unknown> {
  // Like defusedxml: no document type declarations, so no entity expansion.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new InvalidPayloadError("XML with a DOCTYPE is not accepted");
  if (XMLValidator.validate(text) !== true) throw new InvalidPayloadError("Malformed XML payload");
  const doc = parser.parse(text) as Record<string, unknown>;
  const root = Object.entries(doc).find(([k]) => !k.startsWith("#") && !k.startsWith("?"));
  const activity = root?.[1];
  return { format: "v3", root: root?.[0] ?? "", activity: typeof activity === "object" ? activity : {} };
}

export function pivotalBody(): BodyReader {
  return {
    kind: "pivotal-xml-or-json",
    read: (input) => {
      const text = input.rawBody.toString("utf8");
      if (text.trimStart().startsWith("<")) return new Wild(readXmlActivity(text));
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new InvalidJsonError();
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) return new Wild(value);
      return new Wild({ ...(value as Record<string, unknown>), format: "v5" });
    },
  };
}
