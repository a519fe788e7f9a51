/** A small structured logger: one line per record on stderr, level-filtered. Never pass secrets. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel = "info", write: (line: string) => void = defaultWrite): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
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

function defaultWrite(line: string): void {
  process.stderr.write(line + "\n");
}

export const silentLogger: Logger = createLogger("silent");
