// Section 4: the experiment's results, all from the core: the summary
// table (the column catalogue's labels, digits and explanations; key
// columns first, the rest behind "More columns"), the figures, a glossary
// of every column, and the exports. Views are tabs: a later view (a
// schedule view over the selected runs and job, schedule/) is one.
import { useState } from "preact/hooks";
import { core } from "../core";
import type { Column, SummaryTable } from "../generated/types";
import type { ExperimentRun } from "../runs/experiment-run";
import { SchedulePanel } from "../schedule/SchedulePanel";
import { experimentRun, type ResultsView, reg, resultsView, trace, useTick } from "../store";
import { ChartFigure, download, Panel } from "../ui";

function Table(props: { table: SummaryTable; all: boolean }) {
  const t = props.table;
  const shown = t.columns.map((c, i) => ({ c, i })).filter(({ c }) => props.all || c.shown);
  return (
    <>
      <div class="table-wrap">
        <table id="results-table" aria-describedby="results-caption">
          <thead>
            <tr>
              <th class="lbl" scope="col">
                run
              </th>
              {t.sweep ? <th scope="col">{t.sweep}</th> : null}
              {shown.map(({ c, i }) => (
                <th key={c.key} scope="col" data-metric={c.key} title={c.description}>
                  {t.headers[i]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.rows.map((r) => (
              <tr key={`${r.run}/${r.value}`} data-label={r.label} data-title={r.title} data-value={r.value ?? undefined}>
                <th class="lbl" scope="row" title={r.label}>
                  {r.title}
                </th>
                {t.sweep ? <td>{r.value ?? "–"}</td> : null}
                {shown.map(({ c, i }) => {
                  const cell = r.cells[i];
                  return (
                    <td
                      key={c.key}
                      data-metric={c.key}
                      data-value={cell.mean ?? ""}
                      data-ci={cell.ci95 ?? undefined}
                      title={cell.mean === null ? undefined : String(cell.mean)}
                    >
                      {cell.text}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Under the table, not its <caption>: a caption is as wide as a table that scrolls sideways on a phone, and its end would be out of sight. */}
      <p class="muted caption table-note" id="results-caption">
        <span class="context" id="results-context">
          {t.context}.
        </span>{" "}
        Mean of the repetitions, ± the half-width of its 95 % interval when there are several. Hover a header for what it measures, a run
        for its exact spec.
      </p>
    </>
  );
}

function Glossary(props: { columns: Column[]; headers: string[] }) {
  return (
    <dl class="glossary" id="glossary">
      {props.columns.map((c, i) => (
        <div key={c.key} data-metric={c.key}>
          <dt>{props.headers[i]}</dt>
          <dd>{c.description}</dd>
        </div>
      ))}
    </dl>
  );
}

function Summary(props: { run: ExperimentRun }) {
  useTick();
  const [all, setAll] = useState(false);
  const run = props.run;
  const hidden = run.table ? run.table.columns.filter((c) => !c.shown).length : 0;
  return (
    <>
      {run.table ? (
        <>
          <div class="toolbar">
            <label>
              <input type="checkbox" id="more-columns" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> More columns (
              {hidden} more)
            </label>
            <button
              type="button"
              id="export-json"
              onClick={() =>
                run.execution.resultJson &&
                download(core().download_name(trace.value?.name ?? "", "", "result", "json"), run.execution.resultJson, "application/json")
              }
            >
              Results JSON
            </button>
          </div>
          <Table table={run.table} all={all} />
          {run.table.note ? (
            <p class="muted" id="results-note">
              {run.table.note}.
            </p>
          ) : null}
        </>
      ) : null}
      <div class="charts" id="charts">
        {run.figures.map((f) => (
          <ChartFigure key={`${run.id}/${f.id}`} figure={f} file={trace.value?.name ?? ""} />
        ))}
      </div>
    </>
  );
}

const VIEWS: { id: ResultsView; label: string }[] = [
  { id: "summary", label: "Table and charts" },
  { id: "schedule", label: "Schedule" },
  { id: "glossary", label: "Glossary" },
];

export function ResultsPanel() {
  useTick();
  const run = experimentRun.value;
  const failed = run?.execution.failed;
  return (
    <Panel id="results-panel" title="4. Results">
      <div class="tabs" role="tablist" aria-label="Results views">
        {VIEWS.map((v) => (
          <button
            type="button"
            role="tab"
            key={v.id}
            id={`view-${v.id}`}
            aria-selected={resultsView.value === v.id}
            class={resultsView.value === v.id ? "tab active" : "tab"}
            onClick={() => {
              resultsView.value = v.id;
            }}
          >
            {v.label}
          </button>
        ))}
      </div>
      <div id="results" data-complete={run?.complete ? "1" : "0"} role="tabpanel" aria-labelledby={`view-${resultsView.value}`}>
        {resultsView.value === "glossary" ? (
          <Glossary columns={reg().columns} headers={reg().column_headers} />
        ) : !run ? (
          <p class="muted">Run an experiment to see its metrics and charts.</p>
        ) : (
          <>
            {run.error ? <p class="msg error">{run.error}</p> : null}
            {failed && run.complete ? (
              <p class="msg error" id="results-failed">
                {/* Running out of memory is the core's sentence, which already says that the other results are kept. */}
                {failed.failure === "memory"
                  ? failed.error
                  : `Some runs did not finish (${failed.status === "cancelled" ? "cancelled" : failed.error}); the table summarises the others.`}
              </p>
            ) : null}
            {resultsView.value === "schedule" ? <SchedulePanel run={run} /> : <Summary run={run} />}
          </>
        )}
      </div>
    </Panel>
  );
}
