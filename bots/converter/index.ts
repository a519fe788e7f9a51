import { defineBot } from "../kit/index.js";
import { ALIASES, HELP_MESSAGE, PREFIXES, QUICK_HELP, UNITS } from "./units.js";

/** A number as Python's float() reads it (finite values only). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Python's repr() of a float: "200.0", "53.600054", "1e-05", "1.5e+16". */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
    return x
      .toExponential()
      .replace(/e([+-])(\d+)$/, (_m, sign: string, digits: string) => `e${sign}${digits.padStart(2, "0")}`);
  }
  if (Number.isInteger(x)) return `${Object.is(x, -0) ? "-0" : String(x)}.0`;
  return String(x);
}

/** Rounds to `digits` significant digits (0.00045 → 0.0005 for 1 digit), as Zulip's round_to. */
export function roundToSignificant(x: number, digits: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const decimals = digits - Math.floor(Math.log10(Math.abs(x)));
  if (decimals >= 0) return Number(x.toFixed(Math.min(decimals, 100)));
  const scale = 10 ** -decimals;
  return Number((x / scale).toFixed(0)) * scale;
}

/** Strips metric prefixes (in table order) and returns the unit and the power of ten they add up to. */
function stripPrefixes(unitFrom: string, unitTo: string): { from: string; to: string; exponent: number } {
  let from = unitFrom;
  let to = unitTo;
  let exponent = 0;
  for (const [prefix, power] of PREFIXES) {
    if (from.startsWith(prefix)) {
      exponent += power;
      from = from.slice(prefix.length);
    }
    if (to.startsWith(prefix)) {
      exponent -= power;
      to = to.slice(prefix.length);
    }
  }
  return { from, to, exponent };
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One conversion `<number> <unit_from> <unit_to>` (words already lower-cased). */
function convertOne(number: string, fromWord: string, toWord: string): string[] {
  if (!NUMBER.test(number)) return [`\`${number}\` is not a valid number. ${QUICK_HELP}`];
  const { from, to, exponent } = stripPrefixes(
    ALIASES.get(fromWord) ?? fromWord,
    ALIASES.get(toWord) ?? toWord,
  );
  const fromSpec = UNITS.get(from);
  const toSpec = UNITS.get(to);
  if (!fromSpec || !toSpec) {
    // Zulip's wording, including the missing space after the unit_to message; one result per bad unit.
    const errors: string[] = [];
    if (!fromSpec) errors.push(`\`${from}\` is not a valid unit. ${QUICK_HELP}`);
    if (!toSpec) errors.push(`\`${to}\` is not a valid unit.${QUICK_HELP}`);
    return errors;
  }
  if (fromSpec.base !== toSpec.base) {
    const fromName = fromSpec.base === "kelvin" ? capitalize(from) : from;
    return [`\`${capitalize(to)}\` and \`${fromName}\` are not from the same category. ${QUICK_HELP}`];
  }
  let result = Number(number);
  result *= fromSpec.factor;
  result += fromSpec.offset;
  result -= toSpec.offset;
  result /= toSpec.factor;
  result *= fromSpec.base === "bit" ? 1024 ** Math.floor(exponent / 3) : 10 ** exponent;
  return [`${number} ${fromWord} = ${pythonFloat(roundToSignificant(result, 7))} ${toWord}`];
}

/**
 * The converter's answer. Each `@convert` in the text starts another conversion (the text before
 * the first one is one too), as in Zulip; several results are numbered.
 */
export function converterResponse(content: string): string {
  const words = content
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const starts = [-1, ...words.flatMap((w, i) => (w === "@convert" ? [i] : []))];
  const results = starts.flatMap((i) => {
    if (words[i + 1] === "help") return [HELP_MESSAGE];
    const [number, from, to] = [words[i + 1], words[i + 2], words[i + 3]];
    if (number === undefined || from === undefined || to === undefined)
      return [`Too few arguments given. ${QUICK_HELP}`];
    return convertOne(number, from, to);
  });
  return results.map((r, i) => (results.length > 1 ? `${i + 1}. conversion: ` : "") + r + "\n").join("");
}

export default defineBot({
  name: "converter",
  embeddable: true,
  usage: [
    "This plugin allows users to make conversions between various units,",
    "e.g. Celsius to Fahrenheit, or kilobytes to gigabytes.",
    "It looks for messages of the format '@mention-bot <number> <unit_from> <unit_to>'.",
    "The message '@mention-bot help' posts a short description of how to use the plugin,",
    "along with a list of all supported units.",
  ].join("\n"),
  async handleMessage(message, bot) {
    await bot.sendReply(message, converterResponse(message.content));
  },
});
