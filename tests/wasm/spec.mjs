// The command line's policy spec `ID[:KEY=VALUE,...][@PREDICTOR]` as a wasm
// run request, shared by the identity test and the wasm benchmark (the
// Rust side parses it in schedlab_experiment::PolicySpec).

/** Splits each `KEY=VALUE` at its first `=`. */
export function request(spec, extra = {}) {
  const [head, predictor] = spec.split("@");
  const [policy, list] = head.split(":");
  const params = {};
  for (const kv of (list ?? "").split(",").filter(Boolean)) {
    const i = kv.indexOf("=");
    params[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return { policy, params, ...(predictor ? { predictor } : {}), ...extra };
}
