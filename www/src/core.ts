// The one place that imports the generated wasm-bindgen module
// (scripts/build-wasm.sh writes it to src/wasm/, `--target web`). The page
// and each worker instantiate it once; every computation of the page
// (plans, results, tables, figures, links, parameter scopes) is a call into
// it, with the types generated from the Rust types.
import init, * as wasm from "./wasm/schedlab_wasm.js";

export type Core = typeof wasm;

let ready: Promise<Core> | null = null;
let loaded: Core | null = null;

/** Instantiates the module once (page or worker) and returns its exports. */
export function loadCore(): Promise<Core> {
  if (!ready)
    ready = init().then(() => {
      loaded = wasm;
      return wasm;
    });
  return ready;
}

/** The module, once `loadCore` has resolved (the page renders only then). */
export function core(): Core {
  if (!loaded) throw new Error("the WebAssembly core is not loaded yet");
  return loaded;
}

/** Turns whatever a wasm call or a worker threw into one readable line. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}
