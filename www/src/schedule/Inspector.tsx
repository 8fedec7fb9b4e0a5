// The job inspector: the selected job under each open run, as the core
// details it (times, wait, bounded slowdown, prediction, the reservations it
// held, its preemptions, the culprits of the strict-fairness audit and the
// jobs it delayed). Semantic HTML, updates announced politely; every job
// named is a button that opens it.
import { useSignalEffect } from "@preact/signals";
import { useRef, useState } from "preact/hooks";
import { errorMessage } from "../core";
import type { JobDetails, JobRef, ReservationHeld } from "../generated/types";
import { selection } from "../store";
import { durationLabel, infos, inspectedId, timeAndDate, timeLabel, worker } from "./state";

function openJob(job: number): void {
  selection.value = { ...selection.value, job };
}

function JobButton(props: { job: JobRef }) {
  return (
    <button type="button" class="small job-link" data-job={props.job.job} onClick={() => openJob(props.job.job)}>
      job {props.job.id}
    </button>
  );
}

/** "1996-09-26 17:10 UTC+1 (+3 d 4 h), t = 274200 s", or "d3 04:10, t = 274200 s" without a date (the core's words). */
function At(props: { t: number }) {
  return (
    <>
      {timeAndDate(props.t)}
      <small class="muted">, t = {props.t}&nbsp;s</small>
    </>
  );
}

function Times(props: { d: JobDetails }) {
  const d = props.d;
  const rows: [string, preact.ComponentChildren][] = [
    ["size", `${d.size} processors`],
    ["submitted", <At key="s" t={d.submit} />],
    ["started", <At key="b" t={d.start} />],
    ["ended", <At key="e" t={d.end} />],
    // A number and its unit stay on one line (no-break space), as the core's dates do.
    ["wait", `${durationLabel(d.wait)} (${d.wait}\u00a0s)`],
    ["bounded slowdown", d.bsd.toFixed(2)],
    ["runtime / requested", `${durationLabel(d.runtime)} / ${durationLabel(d.estimate)}`],
    ["prediction", durationLabel(d.prediction)],
    ["started as", d.class.replace("_", " ")],
    ["head-only fair start", d.fair_start === null ? "never delayed" : <At key="f" t={d.fair_start} />],
  ];
  return (
    <dl class="inspector-times">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How far reservation `i` moved the promised start from the previous one of the same wait. */
function moved(r: ReservationHeld[], i: number): string {
  const prev = r[i - 1];
  if (!prev || prev.wait !== r[i].wait) return "first promise of this wait";
  const d = r[i].start - prev.start;
  if (d === 0) return "unchanged";
  return `${d > 0 ? "later" : "earlier"} by ${durationLabel(Math.abs(d))}`;
}

function Reservations(props: { d: JobDetails }) {
  const r = props.d.reservations;
  if (r.length === 0) return <p class="muted">It held no reservation.</p>;
  const preempted = r.some((x) => x.wait > 0);
  return (
    <table class="reservations" data-count={r.length}>
      <caption>Reservations it held ({r.length}), in the order they were made</caption>
      <thead>
        <tr>
          <th scope="col">made at</th>
          <th scope="col">promised start</th>
          <th scope="col">change from the previous promise</th>
          {preempted ? <th scope="col">before run</th> : null}
        </tr>
      </thead>
      <tbody>
        {r.map((x, i) => (
          <tr key={i}>
            <td>{timeLabel(x.made)}</td>
            <td>{timeLabel(x.start)}</td>
            <td>{moved(r, i)}</td>
            {preempted ? <td>{x.wait + 1}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Preemptions(props: { d: JobDetails }) {
  const p = props.d.preemptions;
  if (p.length === 0) return null;
  return (
    <table class="preemptions">
      <caption>Preempted runs ({p.length})</caption>
      <thead>
        <tr>
          <th scope="col">from</th>
          <th scope="col">to</th>
          <th scope="col">work lost</th>
        </tr>
      </thead>
      <tbody>
        {p.map((x) => (
          <tr key={x.start}>
            <td>{timeLabel(x.start)}</td>
            <td>{timeLabel(x.end)}</td>
            <td>{durationLabel(x.lost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Fairness(props: { d: JobDetails }) {
  const { delayed, delayed_jobs, backfilled_behind } = props.d;
  return (
    <>
      {backfilled_behind ? (
        <p>
          Backfilled while <JobButton job={backfilled_behind} /> waited first.
        </p>
      ) : null}
      {delayed ? (
        <div class="culprits" data-count={delayed.culprits.length}>
          <p>
            Strict-fairness audit: it could have started at {timeLabel(delayed.from)} and waited {durationLabel(delayed.delay)} more, while
            these lower-priority jobs held the processors it needed:
          </p>
          <ul>
            {delayed.culprits.map((c) => (
              <li key={c.job}>
                <JobButton job={c} />
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>The strict-fairness audit found it not delayed by a lower-priority job.</p>
      )}
      {delayed_jobs.length > 0 ? (
        <div class="delayed-jobs" data-count={delayed_jobs.length}>
          <p>As a culprit it delayed:</p>
          <ul>
            {delayed_jobs.map((c) => (
              <li key={c.job}>
                <JobButton job={c} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

function Details(props: { d: JobDetails; label: string; slot: number }) {
  const d = props.d;
  return (
    <section class="inspector-run" data-slot={props.slot} data-job={d.job} data-blocked={d.blocked ? "1" : "0"}>
      <h4>Under {props.label}</h4>
      <Times d={d} />
      {d.blocked ? <p>It was the first waiting job at the end of a scheduling pass (blocked).</p> : null}
      <Reservations d={d} />
      <Preemptions d={d} />
      <Fairness d={d} />
    </section>
  );
}

function Search() {
  const [text, setText] = useState("");
  const [note, setNote] = useState("");
  const find = async (e: Event) => {
    e.preventDefault();
    const id = Number(text);
    if (!Number.isInteger(id) || id < 0) {
      setNote(`"${text}" is not a job number (a whole number from the trace's first column).`);
      return;
    }
    try {
      const job = await worker().find(id);
      if (job === null) setNote(`The trace has no job number ${id} (or it was dropped when the trace was cleaned).`);
      else {
        setNote("");
        openJob(job);
      }
    } catch (err) {
      setNote(errorMessage(err));
    }
  };
  return (
    <form class="inspector-search" onSubmit={find}>
      <label>
        Job number <input id="job-search" inputMode="numeric" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit">Inspect</button>
      {note ? <span class="msg error">{note}</span> : null}
    </form>
  );
}

export function Inspector() {
  const [details, setDetails] = useState<JobDetails[]>([]);
  const [error, setError] = useState("");
  const serial = useRef(0);
  useSignalEffect(() => {
    const job = selection.value.job;
    const open = infos.value.length;
    if (job === null || open === 0) {
      setDetails([]);
      inspectedId.value = null;
      return;
    }
    const asked = ++serial.current;
    Promise.all(infos.value.map((_, slot) => worker().job(slot, job))).then(
      (d) => {
        // Only the newest selection's answer is shown.
        if (asked !== serial.current) return;
        setDetails(d);
        inspectedId.value = d[0]?.id ?? null;
        setError("");
      },
      (e) => setError(errorMessage(e)),
    );
  });
  const first = details[0];
  return (
    <section data-testid="job-inspector" class="inspector" aria-labelledby="inspector-title">
      <h3 id="inspector-title">{first ? `Job ${first.id} (user ${first.user})` : "Job inspector"}</h3>
      <Search />
      <div aria-live="polite">
        {error ? <p class="msg error">{error}</p> : null}
        {details.length === 0 ? <p class="muted">Click a run in the schedule, or type a job number, to see its fate.</p> : null}
        <div class="inspector-runs">
          {details.map((d, slot) => (
            <Details key={slot} d={d} slot={slot} label={infos.value[slot]?.label ?? ""} />
          ))}
        </div>
      </div>
    </section>
  );
}
