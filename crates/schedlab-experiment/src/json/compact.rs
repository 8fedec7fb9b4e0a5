//! Metrics documents held compactly, for `merge`: a run's documents share
//! one skeleton (their keys and labels: shards are checked to have the same
//! shape), so a document is only its values, nine bytes each (the number's
//! bits and a tag saying which kind of number it is, so that it is written
//! back byte for byte). A parsed JSON tree costs several times its text;
//! these leaves a little over half of it (BENCHMARKS.md).

use schedlab_metrics::MetricKey;

use super::metrics::{Leaf, MetricLabels};
use super::MetricsDocument;

/// The keys (in the document's order) and labels of a run's documents.
#[derive(Clone, Debug)]
pub(crate) struct Skeleton {
    keys: Vec<MetricKey>,
    labels: MetricLabels,
}

impl Skeleton {
    pub(crate) fn of(doc: &MetricsDocument) -> Skeleton {
        Skeleton { keys: doc.keys().collect(), labels: doc.labels().clone() }
    }

    /// The key of every leaf, in leaf order.
    pub(crate) fn keys(&self) -> &[MetricKey] {
        &self.keys
    }

    /// Whether `doc` has this shape: the same metrics and the same labels;
    /// else what differs.
    pub(crate) fn check(&self, doc: &MetricsDocument) -> Result<(), String> {
        // Both key lists are sorted: equal lists are the common case, and
        // otherwise the first key one lacks is the one to name.
        if !self.keys.iter().copied().eq(doc.keys()) {
            let theirs: Vec<MetricKey> = doc.keys().collect();
            let lacking = |a: &[MetricKey], b: &[MetricKey]| a.iter().find(|k| b.binary_search(k).is_err()).copied();
            let k = lacking(&self.keys, &theirs).or_else(|| lacking(&theirs, &self.keys));
            let k = k.map_or_else(String::new, |k| k.path());
            return Err(format!("metric `{k}` is in one point of this run and not in another"));
        }
        if &self.labels != doc.labels() {
            return Err("the metrics' labels (group names, fair-slowdown reference, runtime source) differ between points of this run".into());
        }
        Ok(())
    }
}

/// Leaves per chunk: chunks of fixed size grow the store without ever
/// copying it, so its peak is what it holds.
const CHUNK: usize = 1 << 20;

/// What a leaf's 8 bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    Null,
    Unsigned,
    Signed,
    Float,
}

/// The leaves of many documents, each a run of consecutive leaves.
#[derive(Default)]
pub(crate) struct Leaves {
    bits: Vec<Vec<u64>>,
    tags: Vec<Vec<Tag>>,
    len: usize,
}

impl Leaves {
    /// Stores the leaves of `doc`, which has the shape of its run's
    /// skeleton (checked before); returns where they start.
    pub(crate) fn push(&mut self, doc: &MetricsDocument) -> usize {
        let start = self.len;
        for &(_, leaf) in doc.leaves() {
            match leaf {
                Leaf::Null => self.push_leaf(Tag::Null, 0),
                Leaf::Unsigned(u) => self.push_leaf(Tag::Unsigned, u),
                Leaf::Signed(i) => self.push_leaf(Tag::Signed, i as u64),
                Leaf::Float(x) => self.push_leaf(Tag::Float, x.to_bits()),
            }
        }
        start
    }

    fn push_leaf(&mut self, tag: Tag, bits: u64) {
        if self.len.is_multiple_of(CHUNK) {
            self.bits.push(Vec::with_capacity(CHUNK));
            self.tags.push(Vec::with_capacity(CHUNK));
        }
        let last = self.bits.len() - 1;
        self.bits[last].push(bits);
        self.tags[last].push(tag);
        self.len += 1;
    }

    fn leaf(&self, i: usize) -> Leaf {
        let bits = self.bits[i / CHUNK][i % CHUNK];
        match self.tags[i / CHUNK][i % CHUNK] {
            Tag::Null => Leaf::Null,
            Tag::Unsigned => Leaf::Unsigned(bits),
            Tag::Signed => Leaf::Signed(bits as i64),
            Tag::Float => Leaf::Float(f64::from_bits(bits)),
        }
    }

    /// Whether leaf `i` is null.
    pub(crate) fn is_null(&self, i: usize) -> bool {
        self.leaf(i) == Leaf::Null
    }

    /// The document whose leaves start at `start`.
    pub(crate) fn document(&self, skeleton: &Skeleton, start: usize) -> MetricsDocument {
        let values = skeleton.keys.iter().enumerate().map(|(i, &k)| (k, self.leaf(start + i))).collect();
        MetricsDocument::from_parts(values, skeleton.labels.clone())
    }

    /// Bytes held: the chunks as allocated.
    pub(crate) fn bytes(&self) -> usize {
        self.bits.len() * CHUNK * (std::mem::size_of::<u64>() + std::mem::size_of::<Tag>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> MetricsDocument {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn documents_come_back_as_they_were_stored() {
        let docs = [
            doc(
                r#"{"mbs": 1, "max_wait": -2, "mwbs": 0.5, "mkt": null, "blocked_groups": [{"group": "big", "mbs": 1e300}], "utilization": 3.0}"#,
            ),
            doc(
                r#"{"mbs": 7, "max_wait": 2, "mwbs": null, "mkt": 1.25, "blocked_groups": [{"group": "big", "mbs": 0.0}], "utilization": -0.0}"#,
            ),
        ];
        let skeleton = Skeleton::of(&docs[0]);
        let mut leaves = Leaves::default();
        let starts: Vec<usize> = docs.iter().map(|d| leaves.push(d)).collect();
        for (doc, start) in docs.iter().zip(starts) {
            let back = leaves.document(&skeleton, start);
            assert_eq!(serde_json::to_string(&back).unwrap(), serde_json::to_string(doc).unwrap());
        }
        let paths: Vec<String> = skeleton.keys().iter().map(|k| k.path()).collect();
        assert_eq!(paths, ["mbs", "mwbs", "utilization", "max_wait", "mkt", "blocked_groups.0.mbs"]);
        assert!(leaves.is_null(4) && leaves.is_null(6 + 1) && !leaves.is_null(6 + 4));
        assert!(skeleton.check(&docs[1]).is_ok());
        let other = doc(r#"{"mbs": 1, "blocked_groups": [{"group": "small", "mbs": 1}]}"#);
        assert!(skeleton.check(&other).unwrap_err().contains("`mwbs` is in one point"));
    }

    #[test]
    fn the_store_grows_by_chunks_without_copying() {
        let doc = doc(r#"{"mbs": 1.5}"#);
        let mut leaves = Leaves::default();
        for _ in 0..CHUNK + 1 {
            leaves.push(&doc);
        }
        assert_eq!(leaves.bits.len(), 2);
        assert_eq!(leaves.bits[0].capacity(), CHUNK, "a full chunk is never reallocated");
        assert_eq!(leaves.bytes(), 2 * CHUNK * 9);
        assert_eq!(leaves.document(&Skeleton::of(&doc), CHUNK), doc);
    }
}
