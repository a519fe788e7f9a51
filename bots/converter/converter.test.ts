import { describe, expect, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import converter, { pythonFloat, roundToSignificant } from "./index.js";

const QUICK_HELP = "Enter `@convert help` for help on using the converter.";

describe("converter", () => {
  it("converts between units of one category", () =>
    botTester(converter).verifyDialog([
      ["2 m cm", "2 m = 200.0 cm\n"],
      ["12.0 celsius fahrenheit", "12.0 celsius = 53.600054 fahrenheit\n"],
      ["0.002 kilometer millimile", "0.002 kilometer = 1.2427424 millimile\n"],
      ["3 megabyte kilobit", "3 megabyte = 24576.0 kilobit\n"],
      ["56 g lb", "56 g = 0.12345887 lb\n"],
      ["1 KM M", "1 km = 1000.0 m\n"],
    ]));

  it("explains what is wrong with a request", () =>
    botTester(converter).verifyDialog([
      ["", `Too few arguments given. ${QUICK_HELP}\n`],
      ["foo bar", `Too few arguments given. ${QUICK_HELP}\n`],
      ["foo m cm", `\`foo\` is not a valid number. ${QUICK_HELP}\n`],
      ["2 celsius kilometer", `\`Meter\` and \`Celsius\` are not from the same category. ${QUICK_HELP}\n`],
      ["2 foo kilometer", `\`foo\` is not a valid unit. ${QUICK_HELP}\n`],
      ["2 kilometer foo", `\`foo\` is not a valid unit.${QUICK_HELP}\n`],
      [
        "2 foo bar",
        `1. conversion: \`foo\` is not a valid unit. ${QUICK_HELP}\n` +
          `2. conversion: \`bar\` is not a valid unit.${QUICK_HELP}\n`,
      ],
    ]));

  it("numbers several conversions and answers help with the unit list", async () => {
    const [action] = await botTester(converter).send("@convert help");
    const text = action?.kind === "send" ? action.message.content : "";
    expect(
      text.startsWith(
        `1. conversion: Too few arguments given. ${QUICK_HELP}\n2. conversion: Converter usage:\n`,
      ),
    ).toBe(true);
    expect(text.endsWith("* `@convert 56 g lb`\n\n")).toBe(true);
    expect(text).toContain("* Kelvin (K), Celsius (C), Fahrenheit (F)\n");
  });

  it("runs each @convert in a message", () =>
    botTester(converter).verifyDialog([
      ["1 m cm @convert 1 kg g", "1. conversion: 1 m = 100.0 cm\n2. conversion: 1 kg = 1000.0 g\n"],
    ]));
});

describe("converter number formatting", () => {
  it("prints floats as Python does", () => {
    expect([200, 0.5, 53.600054, 1e-5, 1.5e16, 1e-4, -3].map(pythonFloat)).toEqual([
      "200.0",
      "0.5",
      "53.600054",
      "1e-05",
      "1.5e+16",
      "0.0001",
      "-3.0",
    ]);
  });

  it("rounds to significant digits", () => {
    expect([
      roundToSignificant(0.00046, 0),
      roundToSignificant(123456789, 2),
      roundToSignificant(0, 7),
    ]).toEqual([0.0005, 123000000, 0]);
  });
});
