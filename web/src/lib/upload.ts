import { ApiError, csrfToken, text } from "./api.js";

/**
 * POST /json/user_uploads with one file, reporting progress (fetch cannot report an upload's
 * progress; XMLHttpRequest can). Resolves with the file's URL and name.
 */
export function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ url: string; name: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/json/user_uploads");
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        body = { result: "error", msg: `HTTP ${xhr.status}` };
      }
      if (xhr.status >= 300 || body["result"] !== "success") {
        reject(new ApiError(xhr.status, text(body["code"], "BAD_REQUEST"), text(body["msg"]), body));
        return;
      }
      resolve({ url: text(body["url"]), name: text(body["filename"], file.name) });
    };
    xhr.onerror = () => reject(new Error("network"));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

/** The Markdown that links an uploaded file (an image shows inline, as in Zulip). */
export function uploadMarkdown(name: string, url: string): string {
  return `[${name.replace(/[[\]]/g, "")}](${url})`;
}
