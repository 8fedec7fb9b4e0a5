// Small pieces every panel uses: labelled fields, status lines, downloads
// and a chart drawn by the core. Text goes in as JSX text only (escaped by
// Preact), never as HTML: nothing from a file, a URL or a link is parsed.

import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { core, errorMessage } from "./core";
import { copyEmbed, embedCode } from "./embed";
import type { Figure } from "./generated/types";
import { formNote, type Note, view } from "./store";

export function Field(props: { label: string; note?: ComponentChildren; children: ComponentChildren; class?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is among the children
    <label class={`field ${props.class ?? ""}`}>
      <span class="lbl">{props.label}</span>
      {props.children}
      {props.note ? <small>{props.note}</small> : null}
    </label>
  );
}

const serials = new WeakMap<Note, number>();
let lastSerial = 0;

/** A number for each message shown, so that a reader (a test) can tell a new message from an old one with the same text. */
function serial(n: Note): number {
  let k = serials.get(n);
  if (k === undefined) {
    k = ++lastSerial;
    serials.set(n, k);
  }
  return k;
}

/** A status line (`role=status`, polite); hidden when there is nothing to say. */
export function NoteLine(props: { id: string; note: Note | null; class?: string }) {
  const n = props.note;
  return (
    <div
      id={props.id}
      class={`msg ${n?.kind ?? ""} ${props.class ?? ""}`}
      role="status"
      aria-live="polite"
      hidden={!n}
      data-serial={n ? serial(n) : 0}
    >
      {n?.text ?? ""}
    </div>
  );
}

/** Saves text or bytes as a download. */
export function download(name: string, data: BlobPart, type: string): void {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The width of exported charts (SVG, and PNG at `PNG_SCALE` times its pixels); the core gives the height. */
const EXPORT_WIDTH = 1200;
const PNG_SCALE = 2;

/**
 * An SVG the core drew, rasterised at `PNG_SCALE` times its size: the PNG
 * export has the SVG's title, subtitle, legend and layout, at print resolution.
 */
export function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  return new Promise<Blob>((ok, fail) => {
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = width * PNG_SCALE;
      canvas.height = height * PNG_SCALE;
      const ctx = canvas.getContext("2d");
      if (!ctx) return fail(new Error("no 2-D canvas"));
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((b) => (b ? ok(b) : fail(new Error("the canvas could not be encoded"))), "image/png");
    };
    img.onerror = () => fail(new Error("the SVG could not be drawn"));
    img.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}

/** The height a chart's canvas may take in the presentation layout: its caption and the chart on one screen. */
const PRESENT_HEIGHT = 0.82;

/**
 * Draws `f` on `canvas` for a box `avail` CSS pixels wide. The core sizes
 * the canvas: a pixel per device pixel, the chart's pixels for large type,
 * and tall enough for every name it shows. In the presentation layout a
 * chart taller than `PRESENT_HEIGHT` of the window is drawn narrower, in
 * proportion, so that it fits; the canvas then takes exactly the CSS width
 * it was drawn for. The width is decided here from the box, never read back
 * from the canvas, whose width would follow its own aspect and could never
 * settle (a pixel wider, a pixel taller, a pixel narrower…).
 */
function drawOn(canvas: HTMLCanvasElement, f: Figure, large: boolean, present: boolean, avail: number): string | null {
  const dpr = window.devicePixelRatio || 1;
  const spec = { ...f.spec, title: "" };
  const size = (css: number) => core().chart_canvas(spec, { css_width: css, device_ratio: dpr, window_width: window.innerWidth, large });
  let drawn = size(avail);
  const cap = PRESENT_HEIGHT * window.innerHeight;
  if (present && drawn.height / dpr > cap) drawn = size((avail * cap) / (drawn.height / dpr));
  const { width, height, ratio } = drawn;
  canvas.width = width;
  canvas.height = height;
  canvas.style.aspectRatio = `${width} / ${height}`;
  canvas.style.width = present ? `${width / dpr}px` : "";
  try {
    // The caption above the canvas carries the title (it wraps on a phone,
    // where a drawn title would be cut); the SVG export keeps it.
    core().draw_chart(canvas, spec, ratio);
    canvas.dataset.drawn = "1";
    return null;
  } catch (e) {
    canvas.dataset.drawn = "error";
    return errorMessage(e);
  }
}

/** A chart the core draws on a canvas, redrawn when its width or the text size changes; SVG and PNG exports, with or without the title, named by `file` (the trace) and the figure. */
export function ChartFigure(props: { figure: Figure; file: string; id?: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const present = view.value.present;
  const large = view.value.large || present;
  const f = props.figure;
  useEffect(() => {
    const canvas = ref.current;
    const box = boxRef.current;
    if (!canvas || !box) return;
    let drawnFor = "";
    let timer = 0;
    const redraw = () => {
      // The box's exact width (a fraction of a CSS pixel counts at a pixel ratio of 2).
      const avail = box.getBoundingClientRect().width || 600;
      const key = `${avail} ${present ? window.innerHeight : 0}`;
      if (key === drawnFor) return;
      drawnFor = key;
      setFailed(drawOn(canvas, f, large, present, avail));
    };
    redraw();
    const later = () => {
      clearTimeout(timer);
      timer = window.setTimeout(redraw, 150);
    };
    const ro = new ResizeObserver(later);
    ro.observe(box);
    window.addEventListener("resize", later);
    return () => {
      ro.disconnect();
      window.removeEventListener("resize", later);
      clearTimeout(timer);
    };
  }, [f, large, present]);
  const [titled, setTitled] = useState(true);
  // Without its title and subtitle, for a figure whose caption says them (LaTeX).
  const spec = titled ? f.spec : { ...f.spec, title: "", subtitle: "" };
  const exported = async (kind: "svg" | "png") => {
    try {
      const width = EXPORT_WIDTH;
      const height = core().chart_height(spec, width);
      const svg = core().chart_svg(spec, width, height);
      const name = core().download_name(props.file, f.id, titled ? "" : "untitled", kind);
      if (kind === "svg") download(name, svg, "image/svg+xml");
      else download(name, await svgToPng(svg, width, height), "image/png");
    } catch (e) {
      formNote.value = { kind: "error", text: `${kind.toUpperCase()} export failed: ${errorMessage(e)}` };
    }
  };
  return (
    <figure class="chart">
      <figcaption>
        <span>{f.title}</span>
        <span class="exports">
          <label class="small">
            <input type="checkbox" data-export="titled" checked={titled} onChange={(e) => setTitled(e.currentTarget.checked)} /> title
          </label>{" "}
          <button type="button" class="small" data-export="svg" aria-label={`${f.title}: save as SVG`} onClick={() => void exported("svg")}>
            SVG
          </button>{" "}
          <button type="button" class="small" data-export="png" aria-label={`${f.title}: save as PNG`} onClick={() => void exported("png")}>
            PNG
          </button>{" "}
          <button
            type="button"
            class="small"
            data-export="embed"
            aria-label={`${f.title}: copy the code that embeds it in a web page`}
            onClick={() => void copyEmbed(props.id ?? f.id, f.title)}
          >
            Embed
          </button>
        </span>
      </figcaption>
      <div class="chart-box" ref={boxRef}>
        <canvas id={props.id ?? f.id} ref={ref} role="img" aria-label={f.title} />
      </div>
      {embedCode.value?.chart === (props.id ?? f.id) ? (
        <textarea class="embed-code" readOnly rows={3} aria-label={`Code that embeds ${f.title}`} value={embedCode.value.code} />
      ) : null}
      {failed ? <p class="msg error">Chart failed: {failed}</p> : null}
    </figure>
  );
}

/** A panel of the page, with its heading. */
export function Panel(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" id={props.id} aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{props.title}</h2>
      {props.children}
    </section>
  );
}
