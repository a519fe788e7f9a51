/**
 * The delivery log's writer thread (started by writer-client.ts through bin/deliveries-worker.js):
 * it owns the log's SQLite file, builds the entries handed over by the server's thread (redaction,
 * truncation, serialisation: entries.ts) and writes them in batches with their pruning (LocalLog),
 * so that none of that work runs on the thread that serves requests. Messages are handled in the
 * order they were posted: a call sees every entry handed over before it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDeliveriesFile } from "../../store/deliveries-db.js";
import { LocalLog, answerCall } from "./local-log.js";
import type { NewDelivery } from "./types.js";
import type { Call, FromWriter, Handover, ToWriter, WriterData } from "./writer-protocol.js";

/** Structured cloning turns a Buffer into a plain Uint8Array: the same bytes, as a Buffer again. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function entryOf(e: NewDelivery): NewDelivery {
  return typeof e.requestBody === "string" ? e : { ...e, requestBody: asBuffer(e.requestBody) };
}

function main(port: NonNullable<typeof parentPort>, data: WriterData): void {
  const send = (m: FromWriter): void => port.postMessage(m);
  let nowMs = data.nowMs;
  const clock = { now: () => nowMs };
  const opened = openDeliveriesFile(data.file, data.mainFile);
  const log = new LocalLog(
    opened.then((f) => f.store),
    data.config,
    clock,
    (msg, fields) => send({ type: "warn", msg, fields }),
  );
  opened.then(
    (o) => send({ type: "ready", imported: o.imported }),
    (err: unknown) =>
      send({
        type: "warn",
        msg: "delivery log: could not open its file",
        fields: { file: data.file, error: err instanceof Error ? err.message : String(err) },
      }),
  );

  const run = async (call: Call): Promise<unknown> => {
    const value = await answerCall(
      log,
      call.op === "insert" ? { ...call, entry: entryOf(call.entry) } : call,
    );
    if (call.op === "close") await (await opened).close();
    return value;
  };

  const queue = (item: Handover): void => {
    if ("incoming" in item) {
      log.record({ incoming: { ...item.incoming, rawBody: asBuffer(item.incoming.rawBody) } });
    } else if ("outgoing" in item) {
      log.record(item);
    } else {
      const entry = entryOf(item.entry);
      log.record(() => entry);
    }
  };

  port.on("message", (m: ToWriter) => {
    nowMs = m.nowMs;
    if (m.type === "batch") {
      for (const item of m.items) queue(item);
      return;
    }
    run(m.call).then(
      (value) => send({ type: "reply", id: m.id, ok: true, value }),
      (err: unknown) =>
        send({ type: "reply", id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

if (parentPort !== null) main(parentPort, workerData as WriterData);
