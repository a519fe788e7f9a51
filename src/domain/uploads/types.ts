import type { StoredAttachment } from "../../store/attachments-repo.js";

/** An attachment as GET /attachments and `attachment` events show it. */
export interface AttachmentView {
  attachment: StoredAttachment;
  messages: { id: number; dateSent: number }[];
}
