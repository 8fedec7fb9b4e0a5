// Charts are drawn by the Rust `plotters` code (crates/schedlab-charts,
// through the wasm `draw_chart` / `chart_svg`) on the page's thread.
// Its specification type is generated from the Rust `ChartSpec`.
import { h } from "./dom";
import type { ChartSpec } from "./generated/types";
import { errorMessage, loadCore } from "./wasm";

/** Okabe–Ito, in the order the Rust charts give it to series. */
export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"];

/** A chart specification: the core's `ChartSpec` (generated). */
export type ChartModel = ChartSpec;

export async function draw(canvas: HTMLCanvasElement, m: ChartModel): Promise<void> {
  const core = await loadCore();
  core.draw_chart(canvas, m);
}

/**
 * Draws every chart of `list` on its canvas (by element id), sized to the
 * canvas's width. plotters scales its fonts with the chart's height (with a
 * floor), so large type = fewer pixels stretched to the same place on the
 * screen. A chart that fails is replaced by its error message.
 */
export async function drawAll(list: { id: string; model: ChartModel }[], large: boolean): Promise<void> {
  for (const { id, model } of list) {
    const canvas = document.getElementById(id) as HTMLCanvasElement | null;
    if (!canvas) continue;
    const dpr = large ? 0.6 : Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(480, Math.round(canvas.clientWidth * dpr));
    canvas.width = w;
    canvas.height = Math.round((w * 10) / 16);
    try {
      await draw(canvas, model);
      canvas.dataset.drawn = "1";
    } catch (e) {
      canvas.dataset.drawn = "error";
      canvas.replaceWith(h("p", { class: "msg error" }, `Chart failed: ${errorMessage(e)}`));
    }
  }
}

export async function svg(m: ChartModel, width: number, height: number): Promise<string> {
  const core = await loadCore();
  return core.chart_svg(m, width, height);
}

export function png(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the canvas could not be encoded"))), "image/png"),
  );
}
