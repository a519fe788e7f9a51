import { PyFloat, PyInt, PyObject, pythonFloatRepr } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

/** Python's `str()` of a JSON scalar (lists and objects as Python's repr, roughly). */
export function pyStr(v: PyJson): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return v;
  if (v instanceof PyInt) return v.toString();
  if (v instanceof PyFloat) return pythonFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(pyStr).join(", ")}]`;
  if (v instanceof PyObject) return `{${[...v.entries].map(([k, x]) => `'${k}': ${pyStr(x)}`).join(", ")}}`;
  return "";
}
