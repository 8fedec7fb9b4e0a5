//! Reading a sweep's values by hand, so that a range bound that is no
//! finite number (NaN from the page, `null` in JSON) is named rather than
//! reported as "did not match any variant of untagged enum".

use serde::Deserialize;

use crate::experiment::SweepValues;

impl<'de> Deserialize<'de> for SweepValues {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SweepValuesVisitor)
    }
}

struct SweepValuesVisitor;

/// The bounds of a range, in the order they are written.
const RANGE_KEYS: [&str; 3] = ["from", "to", "step"];

impl<'de> serde::de::Visitor<'de> for SweepValuesVisitor {
    type Value = SweepValues;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("sweep values: a range {from, to, step} of finite numbers, or a list of values")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<SweepValues, A::Error> {
        let mut values = Vec::new();
        while let Some(v) = seq.next_element::<String>()? {
            values.push(v);
        }
        Ok(SweepValues::List(values))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<SweepValues, A::Error> {
        use serde::de::Error;
        let mut bounds = [None; 3];
        while let Some(key) = map.next_key::<String>()? {
            let shown = schedlab_workload::short_text(&key);
            let Some(slot) = RANGE_KEYS.iter().position(|k| *k == key) else {
                return Err(A::Error::custom(format!(
                    "sweep range: unknown field `{shown}` (expected from, to, step)"
                )));
            };
            let not_finite = || {
                A::Error::custom(format!(
                    "sweep range: `{shown}` must be a finite number (not NaN, an infinity or null)"
                ))
            };
            let value: Option<f64> = map.next_value().map_err(|_| not_finite())?;
            bounds[slot] = Some(value.filter(|x| x.is_finite()).ok_or_else(not_finite)?);
        }
        let bound = |i: usize| {
            bounds[i].ok_or_else(|| A::Error::custom(format!("sweep range: `{}` is missing", RANGE_KEYS[i])))
        };
        Ok(SweepValues::Range { from: bound(0)?, to: bound(1)?, step: bound(2)? })
    }
}
