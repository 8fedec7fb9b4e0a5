// Embeddable views: `?embed=chart-mbs` (a chart) or `?embed=schedule`
// (the Gantt of the link's pair and window with its legend; with
// `&controls=1` the whole schedule tab: pickers, inspector, scatter,
// replay) before a share link's fragment opens the page as that one view
// alone, filling its frame, with a small
// "open in Schedlab" link back to the full page; it works in an <iframe>
// on another origin (slides, blog posts). The link's trace is opened as a
// link always opens it: the bundled sample and URL traces load by
// themselves, a file already stored in this browser opens at once, and a
// file the embedding browser does not have is named in the banner, to be
// chosen in the full page.
import { signal } from "@preact/signals";
import { SchedulePanel } from "./schedule/SchedulePanel";
import { linkFragment } from "./share/link";
import { banner, experimentRun, formNote, trace, useTick } from "./store";
import { ChartFigure, NoteLine } from "./ui";

/** The view the address asks for alone (`?embed=chart-mbs`, `?embed=schedule`), or null for the full page. */
export function embeddedView(): string | null {
  const v = new URLSearchParams(location.search).get("embed");
  return v && (v === "schedule" || /^chart-[a-z0-9_-]{1,40}$/.test(v)) ? v : null;
}

/** The full page's address for the embedded view: the same link without `?embed`. */
function fullPage(): string {
  return `${location.origin}${location.pathname}${location.hash}`;
}

/** The <iframe> code last asked for, and the chart it shows. */
export const embedCode = signal<{ chart: string; code: string } | null>(null);

/** Makes (and copies) the <iframe> code that embeds view `chart` (a chart's id, or `schedule`) of the current experiment. */
export async function copyEmbed(chart: string, title: string): Promise<void> {
  const f = linkFragment();
  if (!f) {
    formNote.value = { kind: "error", text: "Load a trace first: the embedded chart's link names it." };
    return;
  }
  const src = `${location.origin}${location.pathname}?embed=${chart}#${f}`;
  const safeTitle = title.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  const code = `<iframe src="${src}" title="${safeTitle}" width="900" height="660" style="border:0" loading="lazy"></iframe>`;
  embedCode.value = { chart, code };
  try {
    await navigator.clipboard.writeText(code);
  } catch {
    // The code stays shown under the chart, to copy by hand.
  }
}

/** The page as one view: what `?embed=` shows instead of the panels. */
export function EmbeddedView(props: { chart: string }) {
  useTick();
  const run = experimentRun.value;
  if (props.chart === "schedule" && run?.complete) {
    return (
      <div class="embed-view" id="embed-view" data-chart="schedule">
        <NoteLine id="banner" note={banner.value} class="banner" />
        <OpenLink />
        <SchedulePanel run={run} viewOnly={new URLSearchParams(location.search).get("controls") !== "1"} />
      </div>
    );
  }
  const figure = run?.figures.find((f) => f.id === props.chart);
  const waiting = !run
    ? "Opening the link…"
    : run.complete
      ? `This experiment has no chart "${props.chart}".`
      : "Running the experiment in this page…";
  return (
    <div class="embed-view" id="embed-view" data-chart={props.chart}>
      <NoteLine id="banner" note={banner.value} class="banner" />
      <OpenLink />
      {figure ? (
        <ChartFigure figure={figure} file={trace.value?.name ?? ""} />
      ) : (
        <p class="muted" id="embed-wait">
          {waiting}
        </p>
      )}
    </div>
  );
}

/** The small link from an embedded view back to the full page. */
function OpenLink() {
  return (
    <a class="embed-open" id="embed-open" href={fullPage()} target="_blank" rel="noopener">
      open in Schedlab
    </a>
  );
}
