import { describe, expect, it } from "@jest/globals";
import { decodeHtmlEntities } from "./html-entities.js";

describe("decodeHtmlEntities", () => {
  it("decodes numeric and known named references", () => {
    expect(decodeHtmlEntities("&lt;b&gt; &amp;amp; &#x263A; &#X263a; &#9731; &hellip;&nbsp;")).toBe(
      "<b> &amp; \u263a \u263a \u2603 \u2026\u00a0",
    );
  });

  it("leaves unknown, NUL and out-of-range references as they are", () => {
    expect(decodeHtmlEntities("&bogus; &#0; &#x110000; &amp")).toBe("&bogus; &#0; &#x110000; &amp");
  });
});
