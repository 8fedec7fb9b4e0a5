//! Metrics documents held compactly, for `merge`: a run's documents share
//! one skeleton (keys and array lengths: shards are checked to have the
//! same shape), so a document is only its leaves, nine bytes each (the
//! number's bits and a tag saying which kind of number it is, so that it
//! is written back byte for byte). A parsed JSON tree costs several times
//! its text; these leaves a little over half of it (BENCHMARKS.md).

use serde_json::{Map, Number, Value};

use super::MetricsDocument;

/// The keys and array lengths of a metrics document; leaves in between.
#[derive(Clone, Debug)]
pub(crate) enum Skeleton {
    Object(Vec<(String, Skeleton)>),
    Array(Vec<Skeleton>),
    Leaf,
}

impl Skeleton {
    pub(crate) fn of(doc: &MetricsDocument) -> Skeleton {
        fn walk(v: &Value) -> Skeleton {
            match v {
                Value::Object(m) => Skeleton::Object(m.iter().map(|(k, x)| (k.clone(), walk(x))).collect()),
                Value::Array(a) => Skeleton::Array(a.iter().map(walk).collect()),
                _ => Skeleton::Leaf,
            }
        }
        walk(&doc.0)
    }

    /// The path of every leaf, in leaf order (`categories[0].mbs`).
    pub(crate) fn leaf_paths(&self) -> Vec<String> {
        fn walk(s: &Skeleton, path: &str, out: &mut Vec<String>) {
            match s {
                Skeleton::Object(fields) => {
                    for (k, x) in fields {
                        walk(x, &if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, out);
                    }
                }
                Skeleton::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        walk(x, &format!("{path}[{i}]"), out);
                    }
                }
                Skeleton::Leaf => out.push(path.to_owned()),
            }
        }
        let mut out = Vec::new();
        walk(self, "", &mut out);
        out
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
    /// Text (a label): its index in `Leaves::texts`.
    Text,
}

/// The leaves of many documents, each a run of consecutive leaves.
#[derive(Default)]
pub(crate) struct Leaves {
    bits: Vec<Vec<u64>>,
    tags: Vec<Vec<Tag>>,
    texts: Vec<Box<str>>,
    len: usize,
    text_bytes: usize,
}

impl Leaves {
    /// Stores the leaves of `doc`, which has the shape of `skeleton`
    /// (checked before); returns where they start.
    pub(crate) fn push(&mut self, doc: &MetricsDocument) -> usize {
        let start = self.len;
        self.push_value(&doc.0);
        start
    }

    fn push_value(&mut self, v: &Value) {
        match v {
            Value::Object(m) => m.values().for_each(|x| self.push_value(x)),
            Value::Array(a) => a.iter().for_each(|x| self.push_value(x)),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => self.push_leaf(Tag::Unsigned, u),
                (None, Some(i)) => self.push_leaf(Tag::Signed, i as u64),
                _ => self.push_leaf(Tag::Float, n.as_f64().unwrap_or(f64::NAN).to_bits()),
            },
            Value::String(s) => {
                self.text_bytes += s.len() + 16;
                self.texts.push(s.as_str().into());
                self.push_leaf(Tag::Text, (self.texts.len() - 1) as u64);
            }
            // Booleans are refused before (`check_kinds`); a null stays null.
            Value::Null | Value::Bool(_) => self.push_leaf(Tag::Null, 0),
        }
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

    fn leaf(&self, i: usize) -> (Tag, u64) {
        (self.tags[i / CHUNK][i % CHUNK], self.bits[i / CHUNK][i % CHUNK])
    }

    /// Whether leaf `i` is null.
    pub(crate) fn is_null(&self, i: usize) -> bool {
        self.leaf(i).0 == Tag::Null
    }

    /// The document whose leaves start at `start`.
    pub(crate) fn document(&self, skeleton: &Skeleton, start: usize) -> MetricsDocument {
        let mut next = start;
        MetricsDocument(self.value(skeleton, &mut next))
    }

    fn value(&self, s: &Skeleton, next: &mut usize) -> Value {
        match s {
            Skeleton::Object(fields) => {
                let mut m = Map::new();
                for (k, x) in fields {
                    m.insert(k.clone(), self.value(x, next));
                }
                Value::Object(m)
            }
            Skeleton::Array(items) => Value::Array(items.iter().map(|x| self.value(x, next)).collect()),
            Skeleton::Leaf => {
                let (tag, bits) = self.leaf(*next);
                *next += 1;
                match tag {
                    Tag::Null => Value::Null,
                    Tag::Unsigned => Value::Number(bits.into()),
                    Tag::Signed => Value::Number((bits as i64).into()),
                    Tag::Float => Number::from_f64(f64::from_bits(bits)).map_or(Value::Null, Value::Number),
                    Tag::Text => Value::String(self.texts[bits as usize].to_string()),
                }
            }
        }
    }

    /// Bytes held: the chunks as allocated and the labels.
    pub(crate) fn bytes(&self) -> usize {
        self.bits.len() * CHUNK * (std::mem::size_of::<u64>() + std::mem::size_of::<Tag>()) + self.text_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_come_back_as_they_were_stored() {
        let docs = [
            serde_json::json!({"a": 1, "b": -2, "c": 0.5, "d": null, "e": [{"name": "SN", "x": 1e300}], "f": 3.0}),
            serde_json::json!({"a": 7, "b": 2, "c": null, "d": 1.25, "e": [{"name": "LW", "x": 0.0}], "f": -0.0}),
        ];
        let docs: Vec<MetricsDocument> = docs.into_iter().map(MetricsDocument).collect();
        let skeleton = Skeleton::of(&docs[0]);
        let mut leaves = Leaves::default();
        let starts: Vec<usize> = docs.iter().map(|d| leaves.push(d)).collect();
        for (doc, start) in docs.iter().zip(starts) {
            let back = leaves.document(&skeleton, start);
            assert_eq!(serde_json::to_string(&back.0).unwrap(), serde_json::to_string(&doc.0).unwrap());
        }
        assert_eq!(skeleton.leaf_paths(), ["a", "b", "c", "d", "e[0].name", "e[0].x", "f"]);
        assert!(leaves.is_null(3) && leaves.is_null(7 + 2) && !leaves.is_null(7 + 3));
    }

    #[test]
    fn the_store_grows_by_chunks_without_copying() {
        let doc = MetricsDocument(serde_json::json!({"a": 1.5}));
        let mut leaves = Leaves::default();
        for _ in 0..CHUNK + 1 {
            leaves.push(&doc);
        }
        assert_eq!(leaves.bits.len(), 2);
        assert_eq!(leaves.bits[0].capacity(), CHUNK, "a full chunk is never reallocated");
        assert_eq!(leaves.bytes(), 2 * CHUNK * 9);
        assert_eq!(leaves.document(&Skeleton::of(&doc), CHUNK).0, doc.0);
    }
}
