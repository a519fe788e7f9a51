import type { AttachmentView } from "../domain/uploads/types.js";

/** Zulip's Attachment object (GET /attachments, `attachment` events); times in milliseconds. */
export function attachmentWire(view: AttachmentView): Record<string, unknown> {
  const a = view.attachment;
  return {
    id: a.id,
    name: a.fileName,
    path_id: a.pathId,
    size: a.size,
    create_time: a.createTimeMs,
    messages: view.messages.map((m) => ({ id: m.id, date_sent: m.dateSent * 1000 })),
  };
}
