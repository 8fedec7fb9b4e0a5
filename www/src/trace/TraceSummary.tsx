// The loaded trace: its statistics, the header's facts and warnings, what
// cleaning did (each count with what it means, from the core's rules) and
// the first malformed lines.
import type { Summary } from "../generated/types";
import { trace } from "../store";

function Stats(props: { s: Summary }) {
  // Labels, units and numbers are the core's (`facts`), as the Python package shows them.
  return (
    <div class="box" id="stats">
      <h3>Statistics</h3>
      <dl class="kv">{props.s.facts.map((f) => [<dt key={`${f.label}-t`}>{f.label}</dt>, <dd key={`${f.label}-d`}>{f.value}</dd>])}</dl>
    </div>
  );
}

function Cleaning(props: { s: Summary }) {
  const s = props.s;
  const counts = s.identity.cleaning;
  return (
    <div class="box" id="cleaning">
      <h3>Cleaning report</h3>
      {s.cleaning.length ? (
        <ul class="cleaning">
          {s.cleaning.map((r) => (
            <li key={r.key} data-rule={r.key}>
              <strong>{r.text}</strong>
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
            Malformed lines (the first {s.bad_lines.length} of {counts.bad_lines ?? s.bad_lines.length})
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
