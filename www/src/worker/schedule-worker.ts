/// <reference lib="webworker" />
// The schedule view's worker. It lives as long as the page and holds one
// session of the trace with up to two runs laid out (slots 0 and 1, the
// pair compared). Opening a pair runs its two points again here, because
// the pool ran them in different workers and a comparison (the scatter)
// needs both records in one session. Every query of the view (windows,
// buckets, series, a job, the replay, the scatter) is answered here, so
// the page's thread only draws; the page sends at most one query at a time
// (schedule/state.ts), so panning never queues work.
import * as Comlink from "comlink";
import { type Core, loadCore } from "../core";
import type {
  ChartSpec,
  Experiment,
  Grid,
  HeadReservation,
  JobDetails,
  JobRect,
  Measure,
  ReplayState,
  Scatter,
  ScatterRect,
  ScheduleInfo,
  Selection,
  SeriesData,
} from "../generated/types";

type Session = InstanceType<Core["Session"]>;

let session: { s: Session; trace: number; options: string } | null = null;
let open = 0;

/** One frame of the Gantt: the runs of the window, or (too many of them) the busy fraction per column. */
export interface GanttFrame {
  slot: number;
  from: number;
  to: number;
  rects: JobRect[] | null;
  columns: Float64Array | null;
  head: HeadReservation | null;
}

/** What the view asks for when its window changes: the Gantt's frame and the series of every open run. */
export interface ViewRequest {
  slot: number;
  from: number;
  to: number;
  /** Pixel columns of the Gantt and of the series (at most 20,000, the core's bucket limit). */
  columns: number;
  /** Most runs drawn one by one; past it the frame holds columns. */
  limit: number;
}

export interface ViewAnswer {
  frame: GanttFrame;
  series: SeriesData[];
}

function theSession(): Session {
  if (!session) throw new Error("no schedule is open");
  return session.s;
}

const api = {
  /**
   * Runs `points` of `experiment` on the trace (`bytes`, a copy, only when
   * `trace` differs from the one held) and lays them out in slots 0, 1.
   */
  async open(trace: number, bytes: ArrayBuffer | null, name: string, experiment: Experiment, points: number[]): Promise<ScheduleInfo[]> {
    const core = await loadCore();
    const options = JSON.stringify(experiment.workload);
    if (!session || session.trace !== trace || session.options !== options) {
      if (!bytes) throw new Error("the schedule worker needs the trace's bytes");
      session?.s.free();
      session = null;
      session = { s: new core.Session(new Uint8Array(bytes), name, experiment.workload), trace, options };
    }
    const s = session.s;
    const infos: ScheduleInfo[] = [];
    for (let slot = 0; slot < 2; slot++) {
      if (slot < points.length) {
        s.run_point(experiment, points[slot], () => true);
        infos.push(s.schedule_open(slot));
      } else if (slot < open) s.schedule_close(slot);
    }
    open = points.length;
    return infos;
  },

  /** Whether the worker holds the trace numbered `trace` (else `open` needs its bytes). */
  has(trace: number): boolean {
    return session?.trace === trace;
  },

  view(r: ViewRequest): ViewAnswer {
    const s = theSession();
    const grid: Grid = { from: r.from, to: r.to, buckets: r.columns };
    const window = s.schedule_window(r.slot, r.from, r.to, r.limit);
    const columns = window.complete ? null : s.schedule_buckets(r.slot, grid);
    // The outline is the reservation in force at the window's middle, as in the SVG chart.
    const head = s.schedule_replay(r.slot, Math.floor(r.from + (r.to - r.from) / 2), 0).head_reservation;
    const frame = { slot: r.slot, from: r.from, to: r.to, rects: window.complete ? window.rects : null, columns, head };
    const series: SeriesData[] = [];
    for (let slot = 0; slot < open; slot++) series.push(s.schedule_series(slot, grid));
    return Comlink.transfer({ frame, series }, columns ? [columns.buffer] : []);
  },

  job(slot: number, job: number): JobDetails {
    return theSession().schedule_job(slot, job);
  },

  /** The index of the job numbered `id` in the trace, or null. */
  find(id: number): number | null {
    return theSession().schedule_find(0, id) ?? null;
  },

  replay(slot: number, t: number, queueLimit: number): ReplayState {
    return theSession().schedule_replay(slot, t, queueLimit);
  },

  scatter(measure: Measure): Scatter {
    return theSession().schedule_scatter(measure);
  },

  select(measure: Measure, rect: ScatterRect, limit: number): Selection {
    return theSession().schedule_select(measure, rect, limit);
  },

  /** The window as the core's chart (drawn to SVG on the page's thread: plotters measures text through the DOM). */
  chart(slot: number, grid: Grid): ChartSpec {
    return theSession().schedule_chart(slot, grid);
  },

  async memory(): Promise<number> {
    return (await loadCore()).wasm_memory_bytes();
  },
};

export type ScheduleWorkerApi = typeof api;

Comlink.expose(api);
