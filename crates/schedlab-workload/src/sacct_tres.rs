//! What a Slurm accounting dump says a job asked of the nodes
//! (docs/formats.md, "Slurm accounting dumps"): node counts (`ReqNodes`,
//! `NNodes`), trackable resources (`ReqTRES`, `AllocTRES`:
//! `billing=4,cpu=4,gres/gpu=2,mem=16G,node=1`) and memory (`ReqMem`,
//! with Slurm's older `c` per-CPU and `n` per-node suffixes). Kept in the
//! job's SWF fields: memory as field 10 (KB per processor), nodes and
//! GPUs in `SwfExtra::nodes` and `SwfExtra::gpus`.

/// A TRES list's `node`, `gres/gpu` and `mem` (MiB), each if present.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tres {
    pub nodes: Option<u64>,
    pub gpus: Option<u64>,
    pub mem_mib: Option<u64>,
}

/// Reads a TRES list. `gres/gpu=N` counts the job's GPUs; typed entries
/// (`gres/gpu:a100=N`) are summed only when the untyped total is absent.
pub(crate) fn tres(text: &str) -> Result<Tres, String> {
    let mut t = Tres::default();
    let mut typed_gpus: Option<u64> = None;
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| format!("`{item}` is not name=amount"))?;
        let key = key.to_ascii_lowercase();
        let number = || value.parse::<u64>().map_err(|_| format!("`{item}` is not a whole amount"));
        match key.as_str() {
            "node" => t.nodes = Some(number()?),
            "gres/gpu" => t.gpus = Some(number()?),
            k if k.starts_with("gres/gpu:") => typed_gpus = Some(typed_gpus.unwrap_or(0).saturating_add(number()?)),
            "mem" => t.mem_mib = Some(crate::parse_amount(crate::MEM, value).map_err(|e| format!("`{item}`: {e}"))?),
            _ => {}
        }
    }
    t.gpus = t.gpus.or(typed_gpus);
    Ok(t)
}

/// `ReqMem` as MiB per CPU (`c` suffix) or per node (`n` suffix, or none:
/// Slurm 21.08 and later print the per-node amount without a suffix).
pub(crate) fn req_mem(text: &str) -> Result<(u64, bool), String> {
    let (amount, per_cpu) = match text.char_indices().last() {
        Some((i, 'c' | 'C')) => (&text[..i], true),
        Some((i, 'n' | 'N')) => (&text[..i], false),
        _ => (text, false),
    };
    let mib = crate::parse_amount(crate::MEM, amount).map_err(|_| format!("`{text}` is not an amount of memory"))?;
    Ok((mib, per_cpu))
}

/// What the job asked: nodes, GPUs, and memory in KB per processor (SWF
/// field 10's unit), each -1 when the dump does not say. The request wins
/// over the allocation; memory comes from `ReqTRES`'s job total first,
/// then `ReqMem`.
pub(crate) fn asked(
    req: Option<Tres>,
    alloc: Option<Tres>,
    req_mem: Option<(u64, bool)>,
    nodes: Option<u64>,
    size: u32,
) -> (i64, i64, f64) {
    let pick = |f: fn(&Tres) -> Option<u64>| req.as_ref().and_then(f).or_else(|| alloc.as_ref().and_then(f));
    let nodes = nodes.filter(|&n| n > 0).or_else(|| pick(|t| t.nodes));
    let gpus = pick(|t| t.gpus);
    let size = u64::from(size.max(1));
    let mem_total = req
        .and_then(|t| t.mem_mib)
        .or_else(|| req_mem.map(|(mib, per_cpu)| if per_cpu { mib * size } else { mib * nodes.unwrap_or(1) }));
    let kb_per_cpu = mem_total.map_or(-1.0, |m| (m as f64 * 1024.0 / size as f64).ceil());
    let signed = |v: Option<u64>| v.map_or(-1, |v| i64::try_from(v).unwrap_or(i64::MAX));
    (signed(nodes), signed(gpus), kb_per_cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tres_lists_give_nodes_gpus_and_memory() {
        let t = tres("billing=8,cpu=8,gres/gpu=2,mem=16G,node=2").unwrap();
        assert_eq!(t, Tres { nodes: Some(2), gpus: Some(2), mem_mib: Some(16 * 1024) });
        let typed = tres("cpu=4,gres/gpu:a100=1,gres/gpu:v100=2,mem=500M").unwrap();
        assert_eq!(typed, Tres { nodes: None, gpus: Some(3), mem_mib: Some(500) });
        assert_eq!(tres("cpu=4,node").unwrap_err(), "`node` is not name=amount");
        assert_eq!(tres("node=two").unwrap_err(), "`node=two` is not a whole amount");
    }

    #[test]
    fn req_mem_reads_per_cpu_and_per_node() {
        assert_eq!(req_mem("2000Mc").unwrap(), (2000, true));
        assert_eq!(req_mem("4Gn").unwrap(), (4096, false));
        assert_eq!(req_mem("64G").unwrap(), (65536, false));
        assert!(req_mem("lots").is_err());
    }

    #[test]
    fn the_request_wins_and_memory_becomes_kb_per_processor() {
        let req = tres("cpu=8,mem=16G,node=2,gres/gpu=4").ok();
        let alloc = tres("cpu=8,mem=32G,node=4,gres/gpu=8").ok();
        // 16 GiB over 8 processors: 2 GiB = 2,097,152 KB each.
        assert_eq!(asked(req, alloc, None, None, 8), (2, 4, 2_097_152.0));
        // ReqMem per CPU when ReqTRES has no memory; NNodes over TRES.
        assert_eq!(asked(tres("cpu=4").ok(), None, Some((1000, true)), Some(1), 4), (1, -1, 1_024_000.0));
        // Per node: 4 GiB on each of 2 nodes, 8 processors.
        assert_eq!(asked(None, None, Some((4096, false)), Some(2), 8), (2, -1, 1_048_576.0));
        assert_eq!(asked(None, None, None, None, 8), (-1, -1, -1.0));
    }
}
