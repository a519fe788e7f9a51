import { describe, expect, it } from "@jest/globals";
import { checkStreamName, normalizeColor } from "../../src/domain/streams/stream-names.js";
import { pickColor, renderDescription } from "../../src/domain/streams/shared.js";

describe("checkStreamName", () => {
  it("accepts ordinary names, emoji and 60 characters", () => {
    expect(() => checkStreamName("Denmark")).not.toThrow();
    expect(() => checkStreamName("🐙 octopus")).not.toThrow();
    expect(() => checkStreamName("é".repeat(60))).not.toThrow();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(() => checkStreamName("🐙".repeat(60))).not.toThrow();
    expect(() => checkStreamName("🐙".repeat(61))).toThrow("Stream name too long (limit: 60 characters).");
  });

  it("rejects empty names", () => {
    expect(() => checkStreamName("")).toThrow("Stream name can't be empty!");
  });

  it("names the position of a control or unassigned character, from 1", () => {
    expect(() => checkStreamName("\u0000abc")).toThrow("Invalid character in stream name, at position 1!");
    expect(() => checkStreamName("ab\ncd")).toThrow("Invalid character in stream name, at position 3!");
    expect(() => checkStreamName("🐙a\u0378")).toThrow("Invalid character in stream name, at position 3!");
  });
});

describe("normalizeColor", () => {
  it("keeps a # colour and adds a missing #", () => {
    expect(normalizeColor("#76ce90", "color")).toBe("#76ce90");
    expect(normalizeColor("76CE90", "color")).toBe("#76CE90");
    expect(normalizeColor("abc", "color")).toBe("#abc");
  });

  it("rejects what is not 3 to 6 hex digits", () => {
    expect(() => normalizeColor("#ab", "color")).toThrow("color is not a valid hex color code");
    expect(() => normalizeColor("#abcdef0", "color")).toThrow("color is not a valid hex color code");
    expect(() => normalizeColor("red", "color")).toThrow("color is not a valid hex color code");
    expect(() => normalizeColor(7, "x")).toThrow("x is not a string");
  });
});

describe("pickColor", () => {
  it("takes the first palette colour not used yet", () => {
    expect(pickColor(new Set())).toBe("#76ce90");
    expect(pickColor(new Set(["#76ce90", "#a6c7e5"]))).toBe("#fae589");
  });

  it("cycles through the palette once every colour is used", () => {
    const palette = [
      "#76ce90",
      "#fae589",
      "#a6c7e5",
      "#e79ab5",
      "#bfd56f",
      "#f4ae55",
      "#b0a5fd",
      "#addfe5",
      "#f5ce6e",
      "#c2726a",
      "#94c849",
      "#bd86e5",
      "#ee7e4a",
      "#a6dcbf",
      "#95a5fd",
      "#53a063",
      "#9987e1",
      "#e4523d",
      "#c2c2c2",
      "#4f8de4",
      "#c6a8ad",
      "#e7cc4d",
      "#c8bebf",
      "#a47462",
    ];
    expect(pickColor(new Set(palette))).toBe("#76ce90");
    expect(pickColor(new Set([...palette, "#000000"]))).toBe("#fae589");
  });
});

describe("renderDescription", () => {
  it("renders Markdown and escapes HTML", () => {
    expect(renderDescription("")).toBe("");
    expect(renderDescription("**bold** <b>x</b>")).toBe("<p><strong>bold</strong> &lt;b&gt;x&lt;/b&gt;</p>");
  });
});
