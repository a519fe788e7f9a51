import { mkdtempSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Where uploaded bytes live. Keys are opaque, URL-safe strings chosen by the upload service; a
 * backend never sees a user-supplied name. (An S3-compatible backend can implement the same.)
 */
export interface UploadStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or undefined when nothing is stored under the key. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Files in one folder (`<data dir>/uploads`), each 0600, the folder 0700. */
export class LocalDiskStorage implements UploadStorage {
  private ready: Promise<void> | undefined;

  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error(`Invalid storage key ${key}`);
    return path.join(this.root, key);
  }

  private async ensureRoot(): Promise<void> {
    this.ready ??= (async () => {
      await fs.mkdir(this.root, { recursive: true, mode: DIR_MODE });
      await fs.chmod(this.root, DIR_MODE);
    })();
    return this.ready;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.ensureRoot();
    const handle = await fs.open(this.file(key), "wx", FILE_MODE);
    try {
      await handle.chmod(FILE_MODE);
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }
}

/**
 * The local-disk storage of a server: `uploadsDir`, else `<dataDir>/uploads`; a data dir of
 * ":memory:" (tests) gets a temporary folder that `dispose` removes.
 */
export function localStorageFor(config: { dataDir: string; uploadsDir?: string | undefined }): {
  storage: LocalDiskStorage;
  dispose: () => Promise<void>;
} {
  if (config.uploadsDir !== undefined) {
    return { storage: new LocalDiskStorage(config.uploadsDir), dispose: () => Promise.resolve() };
  }
  if (config.dataDir !== ":memory:") {
    return {
      storage: new LocalDiskStorage(path.join(config.dataDir, "uploads")),
      dispose: () => Promise.resolve(),
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "chat-uploads-"));
  return {
    storage: new LocalDiskStorage(path.join(dir, "uploads")),
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
