//! Property tests of the reader and the writer.

use proptest::prelude::*;

use super::*;
use crate::*;

// ---------------------------------------------------------------- properties

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..100_000).prop_map(|v| v.to_string()),
        (-10.0f64..1e6).prop_map(|v| format!("{v:.2}")),
        any::<i64>().prop_map(|v| v.to_string()),
        Just("-1".to_owned()),
        "[0-9a-z.+-]{1,4}",
    ]
}

fn swf_line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(number(), 18).prop_map(|f| f.join(" ")),
        1 => prop::collection::vec(number(), 0..22).prop_map(|f| f.join("\t")),
        1 => "; ?[A-Za-z]{1,9}: ?[ -~]{0,20}",
        1 => Just(String::new()),
    ]
}

fn any_options() -> impl Strategy<Value = ReadOptions> {
    (1u64..4096, prop::option::of(1u32..64), any::<bool>(), 0usize..5, 0.1f64..5.0).prop_map(
        |(max, m, clamp, first, lf)| ReadOptions {
            max_bytes: max * 4,
            machine_size: m,
            oversize: if clamp { Oversize::Clamp } else { Oversize::Drop },
            window: if first == 0 { Window::All } else { Window::FirstJobs(first) },
            load_factor: lf,
            ..Default::default()
        },
    )
}

fn check_invariants(l: &Loaded) {
    let t = &l.trace;
    assert!(!t.jobs.is_empty());
    assert_eq!(t.jobs.len(), t.extras.len());
    assert!(t.procs >= 1);
    for w in t.jobs.windows(2) {
        assert!((w[0].submit, w[0].id) <= (w[1].submit, w[1].id));
    }
    for j in &t.jobs {
        assert!(j.runtime >= 0 && j.estimate >= 1 && j.runtime <= j.estimate && j.size >= 1, "{j:?}");
    }
    assert_eq!(l.sha256.len(), 64);
    let _ = stats(t);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_bytes(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        for input in [data.clone(), gzip(&data), [&[0x1f, 0x8b][..], &data].concat()] {
            if let Ok(l) = read_swf(&input[..], &ReadOptions::default()) {
                check_invariants(&l);
            }
        }
    }

    #[test]
    fn never_panics_on_lines(lines in prop::collection::vec(swf_line(), 0..40), opts in any_options()) {
        let input = lines.join("\n");
        if let Ok(l) = read_swf(input.as_bytes(), &opts) {
            check_invariants(&l);
            prop_assert!(l.trace.procs <= opts.machine_size.unwrap_or(u32::MAX));
        }
        let gz = gzip(input.as_bytes());
        let plain = read_swf(input.as_bytes(), &opts).map(|l| (l.trace.jobs, l.sha256));
        let packed = read_swf(&gz[..], &opts).map(|l| (l.trace.jobs, l.sha256));
        match (plain, packed) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(std::mem::discriminant(&a), std::mem::discriminant(&b)),
            (a, b) => prop_assert!(false, "plain {:?} vs gzip {:?}", a.map(|x| x.1), b.map(|x| x.1)),
        }
    }

    #[test]
    fn written_traces_read_back(lines in prop::collection::vec(prop::collection::vec(number(), 18).prop_map(|f| f.join(" ")), 1..30)) {
        if let Ok(a) = read_swf(lines.join("\n").as_bytes(), &ReadOptions::default()) {
            let mut out = Vec::new();
            write_swf(&mut out, &[format!("MaxProcs: {}", a.trace.procs)], rows_of(&a)).expect("write");
            let b = read_swf(&out[..], &ReadOptions::default()).expect("read back");
            prop_assert_eq!(&a.trace.jobs, &b.trace.jobs);
            // Field 5 is written as a processor count: an unknown one (-1)
            // comes back as the job's size.
            let want: Vec<SwfExtra> = a.trace.extras.iter().zip(&a.trace.jobs).map(|(e, j)| {
                let allocated = if u32::try_from(e.allocated).is_ok() { e.allocated } else { i64::from(j.size) };
                SwfExtra { allocated, ..*e }
            }).collect();
            prop_assert_eq!(want, b.trace.extras);
        }
    }
}
