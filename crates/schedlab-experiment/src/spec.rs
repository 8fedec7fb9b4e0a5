//! The compact text form of a run's policy, shared by the command line and
//! share links: `ID[:KEY=VALUE,...][@PREDICTOR]`, e.g.
//! `easy:order=shortest@tsafrir` or `easy:error=20@virtual`.

use schedlab_workload::short_text;
use thiserror::Error;

use crate::{RunRequest, RunSpec};

/// A policy with its parameters and runtime source, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicySpec {
    /// The text as given (a row label in tables).
    pub label: String,
    pub id: String,
    pub params: Vec<(String, String)>,
    pub predictor: Option<String>,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("policy `{}`: nothing after `@` (expected a predictor)", short_text(.0))]
    NoPredictor(String),
    #[error("policy `{}`: no policy id (expected ID[:KEY=VALUE,...][@PREDICTOR])", short_text(.0))]
    NoId(String),
    #[error("parameter `{}` has no key (expected KEY=VALUE)", short_text(.0))]
    NoKey(String),
    #[error("parameter `{}` has no `=` (expected KEY=VALUE)", short_text(.0))]
    NoEquals(String),
    #[error("parameter `{}` is given twice", short_text(.0))]
    Twice(String),
    #[error("policy `{}`: {source}", short_text(.spec))]
    InSpec { spec: String, source: Box<SpecError> },
}

impl PolicySpec {
    /// Parses `ID[:KEY=VALUE,...][@PREDICTOR]` (the one parser:
    /// [`RunSpec::parse`]); the label is the text as given.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let run = RunSpec::parse(text)?;
        Ok(PolicySpec { label: text.to_owned(), id: run.policy, params: run.params.0, predictor: run.predictor })
    }

    /// A request for this policy with default seed and metric options.
    pub fn request(&self) -> RunRequest {
        RunRequest {
            policy: self.id.clone(),
            params: crate::given_texts(self.params.clone()),
            predictor: self.predictor.clone(),
            ..RunRequest::default()
        }
    }
}

/// Splits `KEY=VALUE` at the first `=`.
pub fn split_param(text: &str) -> Result<(String, String), SpecError> {
    match text.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => Ok((key.trim().to_owned(), value.to_owned())),
        Some(_) => Err(SpecError::NoKey(text.to_owned())),
        None => Err(SpecError::NoEquals(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_specs() {
        let s = PolicySpec::parse("easy:order=shortest,error=5@virtual").unwrap();
        assert_eq!(s.id, "easy");
        assert_eq!(s.params, vec![("order".into(), "shortest".into()), ("error".into(), "5".into())]);
        assert_eq!(s.predictor.as_deref(), Some("virtual"));
        let s = PolicySpec::parse("cbf@last").unwrap();
        assert_eq!((s.id.as_str(), s.params.len(), s.predictor.as_deref()), ("cbf", 0, Some("last")));
        assert_eq!(PolicySpec::parse("fcfs").unwrap().predictor, None);
        for bad in ["", "@last", "easy@", "easy:order", "easy:=x"] {
            assert!(PolicySpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn params_split_at_the_first_equals() {
        assert_eq!(split_param("a=b=c").unwrap(), ("a".into(), "b=c".into()));
        assert!(split_param("novalue").unwrap_err().to_string().contains("novalue"));
    }
}
