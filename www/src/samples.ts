// Bundled samples (served from public/samples/, same origin, precached).
export interface Sample {
  id: string;
  file: string;
  title: string;
  provenance: string;
}

export const SAMPLES: Sample[] = [
  {
    id: "kth-sp2-first3000",
    file: "samples/kth-sp2-first3000.swf",
    title: "KTH-SP2, first 3000 jobs (100 processors)",
    provenance:
      'The first 3,000 job lines (jobs 15 to 3014, 42 days) of KTH-SP2-1996-2.1-cln.swf, the cleaned log of the 100-node IBM SP2 at the Swedish Royal Institute of Technology (KTH), September 1996 onwards, EASY scheduler. From the Parallel Workloads Archive (D. G. Feitelson, D. Tsafrir and D. Krakov, "Experience with using the Parallel Workloads Archive", JPDC 74(10), 2014); log provided by Lars Malinowsky (KTH), converted to SWF by Dror Feitelson. Header reduced to its numeric fields plus a Source line by the Schedlab authors; job lines unchanged.',
  },
  {
    id: "kth-sp2-first3000-gz",
    file: "samples/kth-sp2-first3000.swf.gz",
    title: "KTH-SP2, first 3000 jobs, gzip-compressed",
    provenance: "The same sample as above, compressed with gzip -n -9 (the reader detects gzip by content).",
  },
];
