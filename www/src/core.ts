// The one place that imports the generated wasm-bindgen module
// (scripts/build-wasm.sh writes it to src/wasm/, `--target web`). The page
// and each worker instantiate it once; every computation of the page
// (plans, results, tables, figures, links, parameter scopes) is a call into
// it, with the types generated from the Rust types.
import type { ErrorKind } from "./generated/types";
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

/** Every kind, each once: the compiler checks the list against the generated type. */
const ERROR_KINDS: Record<ErrorKind, true> = {
  trace: true,
  limit: true,
  option: true,
  policy: true,
  experiment: true,
  link: true,
  merge: true,
  run: true,
  cancelled: true,
  export: true,
  state: true,
};

function isKind(word: string): word is ErrorKind {
  return Object.hasOwn(ERROR_KINDS, word);
}

/**
 * The kind of a core error (`SchedlabError`), or null for any other throw.
 * Read from `kind`, or from `name` (the kind's class, `TraceError`) when
 * the error crossed a worker, which keeps an error's name and message only.
 */
export function errorKind(e: unknown): ErrorKind | null {
  if (typeof e !== "object" || e === null) return null;
  const { kind, name } = e as { kind?: unknown; name?: unknown };
  if (typeof kind === "string" && isKind(kind)) return kind;
  const word = typeof name === "string" ? /^([A-Z][a-z]+)Error$/.exec(name)?.[1]?.toLowerCase() : undefined;
  return word !== undefined && isKind(word) ? word : null;
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
