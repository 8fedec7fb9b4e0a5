// The loaded trace: its statistics, the header's facts and warnings, what
// cleaning did (each count with what it means, from the core's rules) and
// the first malformed lines.
import type { Summary } from "../generated/types";
import { reg, trace } from "../store";

function fmt(x: number | null | undefined, digits = 3): string {
  if (typeof x !== "number" || !Number.isFinite(x)) return "–";
  return Number.isInteger(x) ? x.toLocaleString("en") : x.toFixed(digits);
}

function pct(x: number | null | undefined): string {
  return typeof x === "number" ? `${(x * 100).toFixed(1)} %` : "–";
}

/** "67.3 % (simulated: 64.1 %)" where cleaning changed a figure, else the figure as recorded. */
function also(recorded: number | null, simulated: number | null, show: (x: number | null) => string): string {
  return simulated !== recorded ? `${show(recorded)} (simulated: ${show(simulated)})` : show(recorded);
}

function secs(x: number | null): string {
  return x === null ? "–" : `${fmt(Math.round(x))} s`;
}

function Stats(props: { s: Summary }) {
  const id = props.s.identity;
  const st = id.stats;
  const sim = st.simulated;
  const h = props.s.header;
  const pairs: [string, string][] = [
    ["Trace", id.name],
    ["SHA-256", id.sha256],
    ["Jobs", fmt(id.jobs)],
    ["Processors", fmt(id.procs)],
    ["Span", `${(st.duration / 86400).toFixed(1)} days`],
    ["Offered load", also(st.offered_load, sim.offered_load, pct)],
    ["Mean parallelism", fmt(st.mean_parallelism, 2)],
    ["Mean runtime", also(st.mean_runtime, sim.mean_runtime, secs)],
    ["Estimate accuracy", also(st.mean_estimate_accuracy, sim.mean_estimate_accuracy, pct)],
    ["Users", fmt(st.users)],
    ["Queues", fmt(st.queues)],
  ];
  if (h.computer) pairs.push(["Computer", h.computer]);
  if (h.installation) pairs.push(["Installation", h.installation]);
  return (
    <div class="box" id="stats">
      <h3>Statistics</h3>
      <dl class="kv">{pairs.map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{v}</dd>])}</dl>
    </div>
  );
}

function Cleaning(props: { s: Summary }) {
  const s = props.s;
  const counts = s.identity.cleaning;
  const rules = reg().cleaning.filter((r) => (counts[r.key] ?? 0) > 0);
  return (
    <div class="box" id="cleaning">
      <h3>Cleaning report</h3>
      {rules.length ? (
        <ul class="cleaning">
          {rules.map((r) => (
            <li key={r.key} data-rule={r.key}>
              <strong>
                {r.effect}: {r.label}: {fmt(counts[r.key])} {r.counts}
              </strong>
              <br />
              <span class="muted">{r.meaning}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>Nothing removed or changed.</p>
      )}
      {s.bad_lines.length ? (
        <>
          <h3>
            Malformed lines (the first {s.bad_lines.length} of {fmt(counts.bad_lines ?? s.bad_lines.length)})
          </h3>
          <ul id="bad-lines">
            {s.bad_lines.map((b) => (
              <li key={b.line}>
                line {b.line}
                {b.field !== null ? `, field ${b.field}${b.field_name ? ` (${b.field_name})` : ""}` : ""}: {b.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {s.warnings.length ? (
        <>
          <h3>Warnings about the trace</h3>
          <ul id="warnings">
            {s.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

export function TraceSummary() {
  const t = trace.value;
  if (!t) return null;
  return (
    <div id="trace-summary" class="grid2">
      <Stats s={t.summary} />
      <Cleaning s={t.summary} />
    </div>
  );
}
