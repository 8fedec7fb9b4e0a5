// The one place that imports the generated wasm-bindgen module
// (scripts/build-wasm.sh writes it to src/wasm/, `--target web`).
import init, * as core from "./wasm/schedlab_wasm.js";

let ready: Promise<typeof core> | null = null;

/** Instantiates the module once (page or worker) and returns its exports. */
export function loadCore(): Promise<typeof core> {
  if (!ready) ready = init().then(() => core);
  return ready;
}

/** Turns whatever a wasm call threw into one readable line. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}
