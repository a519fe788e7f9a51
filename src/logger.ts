/** A small structured logger: one line per record on stderr, level-filtered. Never pass secrets. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** `text` (default): `<time> LEVEL msg k=v…`; `json`: one JSON object per line (`time`, `level`, `msg`, fields). */
export type LogFormat = "text" | "json";

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = defaultWrite,
  options: { format?: LogFormat; fields?: Record<string, unknown> } = {},
): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, own?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    const fields = options.fields ? { ...options.fields, ...own } : own;
    if (options.format === "json") {
      write(jsonRecord(at, msg, fields));
      return;
    }
    const extra = fields
      ? " " +
        Object.entries(fields)
          .map(
            ([k, v]) =>
              `${k}=${typeof v === "string" ? JSON.stringify(v) : v instanceof Error ? JSON.stringify(v.stack ?? v.message) : JSON.stringify(v)}`,
          )
          .join(" ")
      : "";
    write(`${new Date().toISOString()} ${at.toUpperCase()} ${msg}${extra}`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

function jsonRecord(level: string, msg: string, fields: Record<string, unknown> = {}): string {
  const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields)) {
    record[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  return JSON.stringify(record);
}

function defaultWrite(line: string): void {
  process.stderr.write(line + "\n");
}

export const silentLogger: Logger = createLogger("silent");
