// Section 1: choosing the trace (a file, a bundled sample, a URL, the
// synthetic generator, or a file used before on this machine), the status
// line and the trace's summary.
import { useEffect, useState } from "preact/hooks";
import { SAMPLES } from "../samples";
import { traceNote } from "../store";
import { Field, NoteLine, Panel } from "../ui";
import { type GeneratedRef, loadFile, loadGenerated, loadSample, loadUrl, requested, setTrace } from "./load";
import { getTrace, recent, refreshRecent } from "./stored";
import { TraceSummary } from "./TraceSummary";

function FileBox() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    // A file dropped anywhere on the page is taken as the trace.
    const enter = (e: DragEvent) => {
      e.preventDefault();
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setOver(false);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      const f = e.dataTransfer?.files?.[0];
      if (f) void loadFile(f);
    };
    document.addEventListener("dragenter", enter);
    document.addEventListener("dragover", enter);
    document.addEventListener("dragleave", leave);
    document.addEventListener("drop", drop);
    void refreshRecent();
    return () => {
      document.removeEventListener("dragenter", enter);
      document.removeEventListener("dragover", enter);
      document.removeEventListener("dragleave", leave);
      document.removeEventListener("drop", drop);
    };
  }, []);
  const list = recent.value;
  return (
    <div class="box">
      <h3>Your file</h3>
      <div class={`drop ${over ? "over" : ""}`} id="drop-zone">
        <p>
          Drop a trace here: SWF, a Slurm accounting dump (<code>sacct --parsable2</code>) or a Batsim workload (JSON), plain or compressed
          (gzip, bzip2, xz, zstd); or
        </p>
        <Field label="Choose a trace file" class="center">
          <input
            type="file"
            id="file-input"
            onChange={(e) => {
              const input = e.currentTarget;
              const f = input.files?.[0];
              if (f) void loadFile(f);
              input.value = "";
            }}
          />
        </Field>
      </div>
      {list.length > 0 ? (
        <details id="recent">
          <summary>Recently used on this machine</summary>
          <ul>
            {list.slice(0, 5).map((t) => (
              <li key={t.sha256}>
                {t.name} ({(t.size / 1024).toFixed(0)} KiB){" "}
                <button
                  type="button"
                  class="small"
                  aria-label={`Load ${t.name}`}
                  onClick={async () => {
                    const st = await getTrace(t.sha256);
                    if (st) await setTrace(st.bytes, st.name, { kind: "file", name: st.name, sha256: t.sha256 });
                  }}
                >
                  Load
                </button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function SampleBox() {
  const [id, setId] = useState(SAMPLES[0].id);
  const asked = requested.value;
  useEffect(() => {
    if (asked?.kind === "sample" && SAMPLES.some((s) => s.id === asked.id)) setId(asked.id);
  }, [asked]);
  return (
    <div class="box">
      <h3>Bundled sample</h3>
      <div class="row">
        <Field label="Sample">
          <select id="sample-select" value={id} onChange={(e) => setId(e.currentTarget.value)}>
            {SAMPLES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </Field>
        <button type="button" id="sample-load" onClick={() => void loadSample(id)}>
          Load sample
        </button>
      </div>
      <p id="sample-provenance" class="muted provenance">
        {SAMPLES.find((s) => s.id === id)?.provenance}
      </p>
    </div>
  );
}

function UrlBox() {
  const [url, setUrl] = useState("");
  const asked = requested.value;
  useEffect(() => {
    if (asked?.kind === "url") setUrl(asked.url);
  }, [asked]);
  return (
    <div class="box">
      <h3>Open by URL</h3>
      <div class="row">
        <Field label="Trace URL" class="grow">
          <input
            type="url"
            id="url-input"
            placeholder="https://…/trace.swf.gz"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
            onKeyDown={(e) => e.key === "Enter" && void loadUrl(e.currentTarget.value.trim())}
          />
        </Field>
        <button type="button" id="url-open" onClick={() => void loadUrl(url.trim())}>
          Open URL
        </button>
      </div>
      <p class="muted">The server must allow cross-origin requests (CORS).</p>
    </div>
  );
}

/** The generator's fields as text, from settings (a share link's, or the last generated). */
function generatorFields(ref: GeneratedRef) {
  return { procs: String(ref.procs), jobs: String(ref.jobs), load: String(ref.load), seed: String(ref.seed) };
}

function GeneratorBox() {
  const [g, setG] = useState({ procs: "128", jobs: "2000", load: "0.7", seed: "1" });
  const asked = requested.value;
  useEffect(() => {
    if (asked?.kind === "generated") setG(generatorFields(asked));
  }, [asked]);
  const input = (key: keyof typeof g, label: string, attrs: { min: number; max?: number; step: string }) => (
    <Field label={label}>
      <input
        type="number"
        id={`gen-${key}`}
        value={g[key]}
        {...attrs}
        inputMode="decimal"
        onInput={(e) => setG({ ...g, [key]: e.currentTarget.value })}
      />
    </Field>
  );
  return (
    <div class="box">
      <h3>Synthetic (Lublin–Feitelson 1999)</h3>
      <div class="row">
        {input("procs", "Machine size", { min: 1, max: 1_000_000, step: "1" })}
        {input("jobs", "Jobs", { min: 1, max: 1_000_000, step: "1" })}
        {input("load", "Target load", { min: 0.01, max: 10, step: "0.05" })}
        {input("seed", "Seed", { min: 0, step: "1" })}
        <button
          type="button"
          id="gen-run"
          onClick={() =>
            void loadGenerated({
              kind: "generated",
              procs: Number(g.procs),
              jobs: Number(g.jobs),
              load: Number(g.load),
              seed: Number(g.seed),
            })
          }
        >
          Generate
        </button>
      </div>
      <p class="muted">The core checks the settings; a setting out of range is named in the message above the summary.</p>
    </div>
  );
}

export function TracePanel() {
  return (
    <Panel id="trace" title="1. Trace">
      <div class="grid2">
        <FileBox />
        <SampleBox />
        <UrlBox />
        <GeneratorBox />
      </div>
      <NoteLine id="trace-msg" note={traceNote.value} />
      <TraceSummary />
    </Panel>
  );
}
