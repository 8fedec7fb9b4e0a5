// Recently used traces, kept in IndexedDB by SHA-256 (of the uncompressed
// text, as the core computes it) so a share link to an uploaded trace works
// again on the same machine. At most MAX_KEPT traces; the oldest go first.

const DB = "schedlab";
const STORE = "traces";
const MAX_KEPT = 8;
const MAX_BYTES = 200 * 1024 * 1024;

export interface StoredTrace {
  sha256: string;
  name: string;
  bytes: ArrayBuffer;
  used: number;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "sha256" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function tx<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const t = db.transaction(STORE, mode);
        const req = f(t.objectStore(STORE));
        t.oncomplete = () => {
          db.close();
          resolve(req.result);
        };
        t.onerror = () => {
          db.close();
          reject(t.error);
        };
      }),
  );
}

export async function getTrace(sha256: string): Promise<StoredTrace | undefined> {
  try {
    return await tx("readonly", (s) => s.get(sha256) as IDBRequest<StoredTrace | undefined>);
  } catch {
    return undefined;
  }
}

export async function putTrace(t: StoredTrace): Promise<void> {
  if (t.bytes.byteLength > MAX_BYTES) return;
  try {
    await tx("readwrite", (s) => s.put(t));
    const all = await tx("readonly", (s) => s.getAll() as IDBRequest<StoredTrace[]>);
    all.sort((a, b) => b.used - a.used);
    for (const old of all.slice(MAX_KEPT)) await tx("readwrite", (s) => s.delete(old.sha256));
  } catch {
    // storage may be unavailable (private mode, quota): links then ask for the file
  }
}

export async function listTraces(): Promise<{ sha256: string; name: string; used: number; size: number }[]> {
  try {
    const all = await tx("readonly", (s) => s.getAll() as IDBRequest<StoredTrace[]>);
    return all.map((t) => ({ sha256: t.sha256, name: t.name, used: t.used, size: t.bytes.byteLength })).sort((a, b) => b.used - a.used);
  } catch {
    return [];
  }
}
