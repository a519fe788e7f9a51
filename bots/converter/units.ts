/**
 * Unit tables of the converter bot (same units, aliases and prefixes as Zulip's converter).
 * A unit converts to its category's base unit as `value * factor + offset`.
 */
export interface UnitSpec {
  offset: number;
  factor: number;
  base: string;
}

const u = (offset: number, factor: number, base: string): UnitSpec => ({ offset, factor, base });

export const UNITS: ReadonlyMap<string, UnitSpec> = new Map([
  ["bit", u(0, 1, "bit")],
  ["byte", u(0, 8, "bit")],
  ["cubic-centimeter", u(0, 0.000001, "cubic-meter")],
  ["cubic-decimeter", u(0, 0.001, "cubic-meter")],
  ["liter", u(0, 0.001, "cubic-meter")],
  ["cubic-meter", u(0, 1, "cubic-meter")],
  ["cubic-inch", u(0, 0.000016387064, "cubic-meter")],
  ["cubic-foot", u(0, 0.028316846592, "cubic-meter")],
  ["cubic-yard", u(0, 0.764554857984, "cubic-meter")],
  ["teaspoon", u(0, 0.0000049289216, "cubic-meter")],
  ["tablespoon", u(0, 0.000014786765, "cubic-meter")],
  ["cup", u(0, 0.00023658823648491, "cubic-meter")],
  ["gram", u(0, 1, "gram")],
  ["kilogram", u(0, 1000, "gram")],
  ["ton", u(0, 1000000, "gram")],
  ["ounce", u(0, 28.349523125, "gram")],
  ["pound", u(0, 453.59237, "gram")],
  ["kelvin", u(0, 1, "kelvin")],
  ["celsius", u(273.15, 1, "kelvin")],
  ["fahrenheit", u(255.372222, 0.555555, "kelvin")],
  ["centimeter", u(0, 0.01, "meter")],
  ["decimeter", u(0, 0.1, "meter")],
  ["meter", u(0, 1, "meter")],
  ["kilometer", u(0, 1000, "meter")],
  ["inch", u(0, 0.0254, "meter")],
  ["foot", u(0, 0.3048, "meter")],
  ["yard", u(0, 0.9144, "meter")],
  ["mile", u(0, 1609.344, "meter")],
  ["nautical-mile", u(0, 1852, "meter")],
  ["square-centimeter", u(0, 0.0001, "square-meter")],
  ["square-decimeter", u(0, 0.01, "square-meter")],
  ["square-meter", u(0, 1, "square-meter")],
  ["square-kilometer", u(0, 1000000, "square-meter")],
  ["square-inch", u(0, 0.00064516, "square-meter")],
  ["square-foot", u(0, 0.09290304, "square-meter")],
  ["square-yard", u(0, 0.83612736, "square-meter")],
  ["square-mile", u(0, 2589988.110336, "square-meter")],
  ["are", u(0, 100, "square-meter")],
  ["hectare", u(0, 10000, "square-meter")],
  ["acre", u(0, 4046.8564224, "square-meter")],
]);

/** Metric prefixes and their powers of ten, tried in this order. */
export const PREFIXES: ReadonlyMap<string, number> = new Map([
  ["atto", -18],
  ["femto", -15],
  ["pico", -12],
  ["nano", -9],
  ["micro", -6],
  ["milli", -3],
  ["centi", -2],
  ["deci", -1],
  ["deca", 1],
  ["hecto", 2],
  ["kilo", 3],
  ["mega", 6],
  ["giga", 9],
  ["tera", 12],
  ["peta", 15],
  ["exa", 18],
]);

export const ALIASES: ReadonlyMap<string, string> = new Map([
  ["a", "are"],
  ["ac", "acre"],
  ["c", "celsius"],
  ["cm", "centimeter"],
  ["cm2", "square-centimeter"],
  ["cm3", "cubic-centimeter"],
  ["cm^2", "square-centimeter"],
  ["cm^3", "cubic-centimeter"],
  ["dm", "decimeter"],
  ["dm2", "square-decimeter"],
  ["dm3", "cubic-decimeter"],
  ["dm^2", "square-decimeter"],
  ["dm^3", "cubic-decimeter"],
  ["f", "fahrenheit"],
  ["ft", "foot"],
  ["ft2", "square-foot"],
  ["ft3", "cubic-foot"],
  ["ft^2", "square-foot"],
  ["ft^3", "cubic-foot"],
  ["g", "gram"],
  ["ha", "hectare"],
  ["in", "inch"],
  ["in2", "square-inch"],
  ["in3", "cubic-inch"],
  ["in^2", "square-inch"],
  ["in^3", "cubic-inch"],
  ["k", "kelvin"],
  ["kg", "kilogram"],
  ["km", "kilometer"],
  ["km2", "square-kilometer"],
  ["km^2", "square-kilometer"],
  ["l", "liter"],
  ["lb", "pound"],
  ["lbs", "pound"],
  ["m", "meter"],
  ["m2", "square-meter"],
  ["m3", "cubic-meter"],
  ["m^2", "square-meter"],
  ["m^3", "cubic-meter"],
  ["mi", "mile"],
  ["mi2", "square-mile"],
  ["mi^2", "square-mile"],
  ["nmi", "nautical-mile"],
  ["oz", "ounce"],
  ["t", "ton"],
  ["tbsp", "tablespoon"],
  ["tsp", "teaspoon"],
  ["y", "yard"],
  ["y2", "square-yard"],
  ["y3", "cubic-yard"],
  ["y^2", "square-yard"],
  ["y^3", "cubic-yard"],
]);

export const QUICK_HELP = "Enter `@convert help` for help on using the converter.";

export const HELP_MESSAGE =
  "Converter usage:\n" +
  "`@convert <number> <unit_from> <unit_to>`\n" +
  "Converts `number` in the unit <unit_from> to the <unit_to> and prints the result\n" +
  "`number`: integer or floating point number, e.g. 12, 13.05, 0.002\n" +
  "<unit_from> and <unit_to> are two of the following units:\n" +
  "* square-centimeter (cm^2, cm2), square-decimeter (dm^2, dm2), square-meter (m^2, m2), " +
  "square-kilometer (km^2, km2), square-inch (in^2, in2), square-foot (ft^2, ft2), square-yard (y^2, y2), " +
  "square-mile (mi^2, mi2), are (a), hectare (ha), acre (ac)\n" +
  "* bit, byte\n" +
  "* centimeter (cm), decimeter (dm), meter (m), kilometer (km), inch (in), foot (ft), yard (y), " +
  "mile (mi), nautical-mile (nmi)\n" +
  "* Kelvin (K), Celsius (C), Fahrenheit (F)\n" +
  "* cubic-centimeter (cm^3, cm3), cubic-decimeter (dm^3, dm3), liter (l), cubic-meter (m^3, m3), " +
  "cubic-inch (in^3, in3), cubic-foot (ft^3, ft3), cubic-yard (y^3, y3)\n" +
  "* gram (g), kilogram (kg), ton (t), ounce (oz), pound (lb)\n" +
  "* (metric only, U.S. and imperial units differ slightly:) teaspoon (tsp), tablespoon (tbsp), cup\n\n\n" +
  "Allowed prefixes are:\n" +
  "* atto, pico, femto, nano, micro, milli, centi, deci\n" +
  "* deca, hecto, kilo, mega, giga, tera, peta, exa\n\n\n" +
  "Usage examples:\n" +
  "* `@convert 12 celsius fahrenheit`\n" +
  "* `@convert 0.002 kilomile millimeter`\n" +
  "* `@convert 31.5 square-mile ha`\n" +
  "* `@convert 56 g lb`\n";
