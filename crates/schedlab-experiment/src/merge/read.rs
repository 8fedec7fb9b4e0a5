//! Reading a shard file as it streams: in the order `sweep --json` writes
//! its fields, each point is decoded, checked and kept compactly before
//! the next is read, so a file is never held whole, as text or as a tree.
//! A file whose points come before its experiment (keys sorted by a JSON
//! tool) is read all the same, its points held as read until the fields
//! they are checked against have come.

use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{field_error, MergeError, Merger};
use crate::{Experiment, PointResult, Shard, TraceDocument};

/// What a shard file says before its points.
#[derive(Default)]
pub(super) struct Header {
    pub(super) schema: Option<String>,
    pub(super) experiment: Option<Experiment>,
    pub(super) trace: Option<TraceDocument>,
    pub(super) shard: Option<Shard>,
}

const FIELDS: &[&str] = &["schema", "experiment", "labels", "titles", "trace", "shard", "points", "summary", "note"];

impl Merger {
    /// Adds the shard file that `reader` streams (numbered in messages by
    /// the order of the calls, from 1).
    pub fn add_reader(&mut self, reader: impl Read) -> Result<(), MergeError> {
        self.files += 1;
        let file = self.files;
        let mut failure = None;
        let mut de = serde_json::Deserializer::from_reader(reader);
        let mut track = serde_path_to_error::Track::new();
        let seed = FileSeed { merger: self, file, failure: &mut failure };
        let read =
            seed.deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track)).and_then(|()| de.end());
        let Err(e) = read else { return Ok(()) };
        if let Some(failure) = failure {
            return Err(failure);
        }
        if !e.is_data() {
            return Err(MergeError::NotJson { file, message: e.to_string() });
        }
        // The field's path says where; the text's line and column do not
        // help in a one-line document.
        let path = track.path().to_string();
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        Err(field_error(file, if path == "." { "(document)" } else { &path }, message))
    }
}

/// A file's top-level object. A merge error found while reading (a point
/// that is not the plan's) is put in `failure` and stops the parse.
struct FileSeed<'a> {
    merger: &'a mut Merger,
    file: usize,
    failure: &'a mut Option<MergeError>,
}

impl<'de> DeserializeSeed<'de> for FileSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FileSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a shard file (the JSON of `schedlab sweep --shard I/N --json`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut header = Header::default();
        // Points met before the header (a file whose keys were sorted, by
        // `jq -S` or a JSON library): held as read until the header comes.
        let mut early: Option<Vec<PointResult>> = None;
        let mut points = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "schema" | "experiment" | "trace" | "shard" if points && early.is_none() => {
                    let e = field_error(
                        self.file,
                        &key,
                        "comes after `points`, which were read against the fields before them",
                    );
                    return Err(fail(self.failure, e));
                }
                "schema" => header.schema = Some(map.next_value()?),
                "experiment" => header.experiment = Some(map.next_value()?),
                "trace" => header.trace = Some(map.next_value()?),
                "shard" => header.shard = map.next_value()?,
                // Made again from the experiment, like the summary.
                "labels" | "titles" | "summary" | "note" => {
                    map.next_value::<IgnoredAny>()?;
                }
                "points" if points => return Err(de::Error::duplicate_field("points")),
                "points" if header.schema.is_none() || header.experiment.is_none() || header.trace.is_none() => {
                    points = true;
                    early = Some(map.next_value()?);
                }
                "points" => {
                    points = true;
                    let shard =
                        self.merger.begin(self.file, std::mem::take(&mut header)).map_err(|e| fail(self.failure, e))?;
                    let seed = PointsSeed { merger: self.merger, file: self.file, shard, failure: self.failure };
                    map.next_value_seed(seed)?;
                }
                other => return Err(de::Error::unknown_field(other, FIELDS)),
            }
        }
        if !points {
            return Err(de::Error::missing_field("points"));
        }
        if let Some(early) = early {
            let shard = self.merger.begin(self.file, header).map_err(|e| fail(self.failure, e))?;
            for point in early {
                self.merger.take(self.file, shard, point).map_err(|e| fail(self.failure, e))?;
            }
        }
        Ok(())
    }
}

/// Stops the parse with `e`, kept for the caller.
fn fail<E: de::Error>(failure: &mut Option<MergeError>, e: MergeError) -> E {
    let message = e.to_string();
    *failure = Some(e);
    E::custom(message)
}

/// The `points` list, taken one point at a time.
struct PointsSeed<'a> {
    merger: &'a mut Merger,
    file: usize,
    shard: Option<Shard>,
    failure: &'a mut Option<MergeError>,
}

impl<'de> DeserializeSeed<'de> for PointsSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PointsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of points")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(point) = seq.next_element::<PointResult>()? {
            if let Err(e) = self.merger.take(self.file, self.shard, point) {
                return Err(fail(self.failure, e));
            }
        }
        Ok(())
    }
}
