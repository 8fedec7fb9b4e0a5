// Recently used trace files, kept in IndexedDB (idb-keyval) by the SHA-256
// of their uncompressed text (as the core computes it), so that a share
// link to an uploaded trace runs again on the same machine. At most
// MAX_KEPT traces of at most MAX_BYTES each; the least recently used go
// first. Storage can be missing (private windows, quota): links then ask
// for the file.
import { signal } from "@preact/signals";
import { createStore, del, get, set } from "idb-keyval";

const MAX_KEPT = 8;
const MAX_BYTES = 200 * 1024 * 1024;
const RECENT = "recent";

const db = createStore("schedlab-traces", "traces");

export interface RecentTrace {
  sha256: string;
  name: string;
  size: number;
  used: number;
}

interface StoredTrace {
  name: string;
  bytes: ArrayBuffer;
}

const key = (sha256: string) => `trace:${sha256}`;

/** The recently used traces, most recent first (see `refreshRecent`). */
export const recent = signal<RecentTrace[]>([]);

async function listTraces(): Promise<RecentTrace[]> {
  try {
    return (await get<RecentTrace[]>(RECENT, db)) ?? [];
  } catch {
    return [];
  }
}

/** Reads the list of recently used traces into `recent`. */
export async function refreshRecent(): Promise<void> {
  recent.value = await listTraces();
}

export async function getTrace(sha256: string): Promise<{ name: string; bytes: ArrayBuffer } | undefined> {
  try {
    return await get<StoredTrace>(key(sha256), db);
  } catch {
    return undefined;
  }
}

/** Keeps a trace (and forgets the least recently used beyond MAX_KEPT). */
export async function putTrace(sha256: string, name: string, bytes: ArrayBuffer): Promise<void> {
  if (bytes.byteLength > MAX_BYTES) return;
  try {
    await set(key(sha256), { name, bytes } satisfies StoredTrace, db);
    const list = (await listTraces()).filter((t) => t.sha256 !== sha256);
    list.unshift({ sha256, name, size: bytes.byteLength, used: Date.now() });
    for (const old of list.splice(MAX_KEPT)) await del(key(old.sha256), db);
    await set(RECENT, list, db);
    recent.value = list;
  } catch {
    // Storage is unavailable: the trace works now, a link will ask for it.
  }
}
