// The page's panels, in the order a user goes through them, over one store.
import { DemoButton } from "./demo/DemoButton";
import { EmbeddedView, embeddedView } from "./embed";
import { ExperimentPanel } from "./experiment/ExperimentPanel";
import { PresetsPanel } from "./presets/PresetsPanel";
import { ResultsPanel } from "./results/ResultsPanel";
import { RunsPanel } from "./runs/RunsPanel";
import { banner, pendingFile } from "./store";
import { TracePanel } from "./trace/TracePanel";
import { NoteLine } from "./ui";

function Banner() {
  const want = pendingFile.value;
  const note =
    banner.value ?? (want ? { kind: "info" as const, text: `The link needs the file "${want.name}": choose it in section 1.` } : null);
  return <NoteLine id="banner" note={note} class="banner" />;
}

export function App() {
  const embedded = embeddedView();
  if (embedded) return <EmbeddedView chart={embedded} />;
  return (
    <>
      <Banner />
      <DemoButton />
      <TracePanel />
      <ExperimentPanel />
      <PresetsPanel />
      <RunsPanel />
      <ResultsPanel />
    </>
  );
}
