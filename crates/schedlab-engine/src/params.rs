//! Parameter lists that the command line and the web page build their forms
//! from, and the checked values they resolve to. A parameter is described
//! once, as a field of the struct its policy or runtime source reads
//! ([`param_set!`](crate::param_set)); the front ends never hard-code one.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

#[cfg(feature = "counters")]
pub mod counters;
mod typed;

pub use typed::{read_field, Checked, IntOr, ParamSet, ParamType};

use serde::Serialize;
use thiserror::Error;

/// One parameter of a policy or a runtime source.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamSpec {
    /// The key used in `--param KEY=VALUE` and in share links.
    pub key: &'static str,
    /// A short label for forms.
    pub name: &'static str,
    pub description: &'static str,
    #[serde(flatten)]
    pub kind: ParamKind,
    /// The unit of a number ("s", "%"), if it has one.
    pub unit: Option<&'static str>,
}

/// The type, range and default of a parameter.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ParamKind {
    Choice {
        options: &'static [&'static str],
        default: &'static str,
    },
    Int {
        min: i64,
        max: i64,
        default: i64,
    },
    Float {
        min: f64,
        max: f64,
        default: f64,
    },
    /// A whole number in [min, max] or the one word `word` (a reservation
    /// depth: a number or `all`); `default` is either, as text.
    IntOr {
        min: i64,
        max: i64,
        word: &'static str,
        default: &'static str,
    },
    /// Text of at most `max_len` characters that `check` accepts (a queue
    /// order: a preset's name or a formula); the policy that reads it
    /// supplies the check, so its errors reach the user before a run, and
    /// what the check makes of the text (a compiled formula) is kept with
    /// the value, so the policy is built from it without reading the text
    /// again.
    Text {
        default: &'static str,
        max_len: usize,
        #[serde(skip)]
        #[cfg_attr(feature = "ts", ts(skip))]
        check: TextCheck,
    },
}

/// The check of a text parameter: what it made of the text (`None` when
/// it only checks), or a message saying what is wrong and where.
#[derive(Clone, Copy)]
pub struct TextCheck(pub fn(&str) -> Result<Option<Compiled>, String>);

/// What a text parameter's check made of the text (a queue order's compiled
/// formula). The engine knows no formula, so it holds the value as `Any`;
/// the policy's field ([`Checked`]) takes it back as its own type. Shared,
/// so that the points of an experiment clone settings without compiling.
#[derive(Clone)]
pub struct Compiled(Arc<dyn Any + Send + Sync>);

impl Compiled {
    pub fn new<T: Any + Send + Sync>(value: T) -> Self {
        Self(Arc::new(value))
    }

    /// The value, if it is a `T`.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        Arc::clone(&self.0).downcast().ok()
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

impl PartialEq for TextCheck {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl std::fmt::Debug for TextCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TextCheck")
    }
}

/// A checked parameter value.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    Choice(String),
    Int(i64),
    Float(f64),
    /// A text parameter's value, or the word of an `IntOr` parameter.
    Text(String),
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParamError {
    #[error("unknown parameter `{key}` (known: {known})")]
    Unknown { key: String, known: String },
    #[error("parameter `{key}` is given twice")]
    Duplicate { key: String },
    #[error("parameter `{key}`: `{value}` is not one of {options}")]
    NotAnOption { key: String, value: String, options: String },
    #[error("parameter `{key}`: `{value}` is not a {expected}")]
    NotANumber { key: String, value: String, expected: &'static str },
    #[error("parameter `{key}`: {value} is outside [{min}, {max}]")]
    OutOfRange { key: String, value: String, min: String, max: String },
    #[error("parameter `{key}`: {message}")]
    Invalid { key: String, message: String },
}

/// Resolved values, one per parameter of the list (defaults filled in),
/// in key order, with what the checks of text parameters made of their
/// text. Two sets are equal when their values are: the compiled forms
/// follow from the text.
#[derive(Clone, Debug, Default)]
pub struct Params {
    values: BTreeMap<String, ParamValue>,
    compiled: BTreeMap<String, Compiled>,
}

impl PartialEq for Params {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

/// The values alone, in key order: documents show the text of a formula,
/// never its compiled form.
impl Serialize for Params {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.values.serialize(serializer)
    }
}

/// A value checked for a parameter ([`Params::check`]), with what the
/// check of a text parameter made of it.
#[derive(Clone, Debug)]
pub struct CheckedValue {
    value: ParamValue,
    compiled: Option<Compiled>,
}

/// A value as a request gives it: text as typed, or a number already read
/// (a sweep's value, computed), with the text that shows it in messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamInput<'a> {
    Text(&'a str),
    Number { value: f64, text: &'a str },
}

impl Params {
    /// Checks `given` (key, text) pairs against `specs`: unknown keys,
    /// repeated keys, non-numbers, options and ranges are all errors. Each
    /// text is read once, here: a number becomes a number and a text
    /// parameter keeps what its check made of it.
    pub fn resolve(specs: &[ParamSpec], given: &[(String, String)]) -> Result<Self, ParamError> {
        let inputs: Vec<(&str, ParamInput<'_>)> =
            given.iter().map(|(k, v)| (k.as_str(), ParamInput::Text(v))).collect();
        Params::resolve_inputs(specs, &inputs)
    }

    /// [`Params::resolve`] of values some of which are numbers already.
    pub fn resolve_inputs(specs: &[ParamSpec], given: &[(&str, ParamInput<'_>)]) -> Result<Self, ParamError> {
        let mut params = Params::default();
        for &(key, input) in given {
            let spec = specs.iter().find(|s| s.key == key).ok_or_else(|| ParamError::Unknown {
                key: schedlab_workload::short_text(key),
                known: known_keys(specs),
            })?;
            if params.values.contains_key(spec.key) {
                return Err(ParamError::Duplicate { key: key.to_owned() });
            }
            params.set(spec, input)?;
        }
        for spec in specs {
            if !params.values.contains_key(spec.key) {
                params.set_default(spec)?;
            }
        }
        Ok(params)
    }

    /// Sets the parameter of `spec` to `input`, checked as
    /// [`Params::resolve`] checks a given value, in place of the value it
    /// had (an experiment's swept value over a run resolved once).
    pub fn set(&mut self, spec: &ParamSpec, input: ParamInput<'_>) -> Result<(), ParamError> {
        let value = Params::check(spec, input)?;
        self.put(spec, value);
        Ok(())
    }

    /// `input` checked for `spec` as [`Params::resolve`] checks a given
    /// value, to be [`put`](Params::put) into sets of that list later (an
    /// experiment's list of swept values, each checked once for all the
    /// points that take it).
    pub fn check(spec: &ParamSpec, input: ParamInput<'_>) -> Result<CheckedValue, ParamError> {
        parse(spec, input).map(|(value, compiled)| CheckedValue { value, compiled })
    }

    /// Sets the parameter of `spec` to a value checked for it.
    pub fn put(&mut self, spec: &ParamSpec, value: CheckedValue) {
        self.insert(spec, value.value, value.compiled);
    }

    /// The default of `spec`; a text parameter's default goes through its
    /// check like any text, so the policy gets its compiled form too.
    fn set_default(&mut self, spec: &ParamSpec) -> Result<(), ParamError> {
        let compiled = match &spec.kind {
            ParamKind::Text { default, check, .. } => {
                (check.0)(default).map_err(|message| ParamError::Invalid { key: spec.key.to_string(), message })?
            }
            _ => None,
        };
        self.insert(spec, spec.default_value(), compiled);
        Ok(())
    }

    fn insert(&mut self, spec: &ParamSpec, value: ParamValue, compiled: Option<Compiled>) {
        self.values.insert(spec.key.to_string(), value);
        match compiled {
            Some(c) => self.compiled.insert(spec.key.to_string(), c),
            None => self.compiled.remove(spec.key),
        };
    }

    /// The checked value of a parameter of the list, for code that walks a
    /// list of any policy (titles, documents); a policy reads its own
    /// values as the struct of its [`ParamSet`].
    pub fn value(&self, spec: &ParamSpec) -> Option<&ParamValue> {
        self.values.get(spec.key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }
}

fn known_keys(specs: &[ParamSpec]) -> String {
    if specs.is_empty() {
        return "none".to_string();
    }
    specs.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
}

impl ParamSpec {
    /// The default as a form shows it: the option, or the number as
    /// `schedlab policies` prints it (`3600`, `0.2`).
    pub fn default_text(&self) -> String {
        match &self.kind {
            ParamKind::Choice { default, .. } => (*default).to_owned(),
            ParamKind::Int { default, .. } => default.to_string(),
            ParamKind::Float { default, .. } => default.to_string(),
            ParamKind::IntOr { default, .. } | ParamKind::Text { default, .. } => (*default).to_owned(),
        }
    }
}

impl ParamSpec {
    /// The default as a checked value (what [`Params::resolve`] fills in,
    /// without running a text parameter's check).
    pub fn default_value(&self) -> ParamValue {
        default_of(&self.kind)
    }
}

fn default_of(kind: &ParamKind) -> ParamValue {
    match kind {
        ParamKind::Choice { default, .. } => ParamValue::Choice((*default).to_string()),
        ParamKind::Int { default, .. } => ParamValue::Int(*default),
        ParamKind::Float { default, .. } => ParamValue::Float(*default),
        // The defaults are constants the parameter lists' tests parse.
        ParamKind::IntOr { default, .. } => match default.parse() {
            Ok(n) => ParamValue::Int(n),
            Err(_) => ParamValue::Text((*default).to_string()),
        },
        ParamKind::Text { default, .. } => ParamValue::Text((*default).to_string()),
    }
}

/// The checked value of `input` for `spec`, and what a text parameter's
/// check made of it.
fn parse(spec: &ParamSpec, input: ParamInput<'_>) -> Result<(ParamValue, Option<Compiled>), ParamError> {
    let (text, number) = match input {
        ParamInput::Text(text) => {
            #[cfg(feature = "counters")]
            counters::count(spec.key, text);
            (text, None)
        }
        ParamInput::Number { value, text } => (text, Some(value)),
    };
    let key = spec.key.to_string();
    let value = text.trim();
    let read = match (&spec.kind, number) {
        (ParamKind::Int { min, max, .. }, Some(n)) => {
            let v = whole(n).ok_or_else(|| match n.fract() == 0.0 {
                // Past what an `i64` holds: out of range, as its digits are.
                true => ParamError::OutOfRange {
                    key: key.clone(),
                    value: schedlab_workload::short_text(value),
                    min: min.to_string(),
                    max: max.to_string(),
                },
                false => ParamError::NotANumber {
                    key: key.clone(),
                    value: schedlab_workload::short_text(value),
                    expected: "whole number",
                },
            })?;
            in_range(key, v, *min, *max, |x: i64| x.to_string()).map(ParamValue::Int)
        }
        (ParamKind::Float { min, max, .. }, Some(n)) => number_in_range(key, Some(n), value, *min, *max),
        (ParamKind::IntOr { min, max, word, .. }, Some(n)) => {
            let v = whole(n).ok_or_else(|| ParamError::Invalid {
                key: key.clone(),
                message: format!("`{value}` is neither a whole number nor `{word}`"),
            })?;
            in_range(key, v, *min, *max, |x: i64| x.to_string()).map(ParamValue::Int)
        }
        _ => return parse_text(spec, key, value),
    };
    read.map(|v| (v, None))
}

/// `x` as a whole number, if it is one that an `i64` holds.
fn whole(x: f64) -> Option<i64> {
    // 2^63 is a power of two, so the bounds are exact.
    (x.fract() == 0.0 && x >= -(2f64.powi(63)) && x < 2f64.powi(63)).then_some(x as i64)
}

/// A text parameter's value: at most `max_len` characters that `check`
/// accepts, with what it made of them.
fn checked_text(
    key: String,
    value: &str,
    max_len: usize,
    check: &TextCheck,
) -> Result<(ParamValue, Option<Compiled>), ParamError> {
    let length = value.chars().count();
    if length > max_len {
        let message = format!("{length} characters; at most {max_len} are accepted");
        return Err(ParamError::Invalid { key, message });
    }
    let compiled = (check.0)(value).map_err(|message| ParamError::Invalid { key, message })?;
    Ok((ParamValue::Text(value.to_string()), compiled))
}

/// A float, read from `value` unless it is already the number `n`.
fn number_in_range(key: String, n: Option<f64>, value: &str, min: f64, max: f64) -> Result<ParamValue, ParamError> {
    let v = n.or_else(|| value.parse().ok()).filter(|v: &f64| v.is_finite()).ok_or_else(|| ParamError::NotANumber {
        key: key.clone(),
        value: schedlab_workload::short_text(value),
        expected: "number",
    })?;
    in_range(key, v, min, max, schedlab_workload::short_number).map(ParamValue::Float)
}

/// A value read from its text, with what a text parameter's check made of
/// it.
fn parse_text(spec: &ParamSpec, key: String, value: &str) -> Result<(ParamValue, Option<Compiled>), ParamError> {
    let read = match &spec.kind {
        ParamKind::Choice { options, .. } => {
            options.iter().find(|o| **o == value).map(|o| ParamValue::Choice((*o).to_string())).ok_or_else(|| {
                ParamError::NotAnOption {
                    key,
                    value: schedlab_workload::short_text(value),
                    options: options.join(", "),
                }
            })
        }
        ParamKind::Int { min, max, .. } => {
            let v: i64 = value.parse().map_err(|e: std::num::ParseIntError| match e.kind() {
                // Digits past what any range here allows: out of range.
                std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => ParamError::OutOfRange {
                    key: key.clone(),
                    value: schedlab_workload::short_text(value),
                    min: min.to_string(),
                    max: max.to_string(),
                },
                _ => ParamError::NotANumber {
                    key: key.clone(),
                    value: schedlab_workload::short_text(value),
                    expected: "whole number",
                },
            })?;
            in_range(key, v, *min, *max, |x: i64| x.to_string()).map(ParamValue::Int)
        }
        ParamKind::Float { min, max, .. } => number_in_range(key, None, value, *min, *max),
        ParamKind::IntOr { min, max, word, .. } => {
            if value == *word {
                return Ok((ParamValue::Text(value.to_string()), None));
            }
            let v: i64 = value.parse().map_err(|_| ParamError::Invalid {
                key: key.clone(),
                message: format!("`{}` is neither a whole number nor `{word}`", schedlab_workload::short_text(value)),
            })?;
            in_range(key, v, *min, *max, |x: i64| x.to_string()).map(ParamValue::Int)
        }
        ParamKind::Text { max_len, check, .. } => return checked_text(key, value, *max_len, check),
    };
    read.map(|v| (v, None))
}

/// `v` if it lies in [min, max]; the error shows numbers with `show`, so
/// that a float like 1e300 reads as `1e300`, not 301 digits.
fn in_range<T: PartialOrd + Copy>(key: String, v: T, min: T, max: T, show: fn(T) -> String) -> Result<T, ParamError> {
    if v < min || v > max {
        return Err(ParamError::OutOfRange { key, value: show(v), min: show(min), max: show(max) });
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::param_choice! {
        enum Order {
            Priority = "priority",
            Shortest = "shortest",
        }
    }

    crate::param_set! {
        struct Simple {
            order: Choice<Order> { default: Order::Priority },
                name: "Order", description: "";
            error: Float { min: 0.0, max: 100.0, default: 10.0 },
                name: "Error", description: "", unit: "%";
        }
    }

    fn positive_word(text: &str) -> Result<(), String> {
        text.starts_with('+').then_some(()).ok_or_else(|| format!("`{text}` does not start with `+`"))
    }

    crate::param_set! {
        struct More {
            depth: IntOr { min: 0, max: 10, word: "all", default: "1" },
                name: "Depth", description: "";
            order: Text { default: "+a", max_len: 5, check: positive_word },
                name: "Order", description: "";
        }
    }

    /// A check that makes something of the text: its length in characters.
    fn length(text: &str) -> Result<usize, String> {
        (!text.is_empty()).then(|| text.chars().count()).ok_or_else(|| "empty".to_string())
    }

    crate::param_set! {
        struct Compiling {
            word: Text<usize> { default: "four", max_len: 10, check: length },
                name: "Word", description: "";
            count: Int { min: 0, max: 9, default: 1 },
                name: "Count", description: "";
        }
    }

    /// What a `Text<T>` check made of the text reaches the struct, for a
    /// given value and for the default alike; the text stays as given.
    #[test]
    fn a_checked_text_keeps_what_its_check_made() {
        let p: Compiling = read(&[("word", " héllo ")]).unwrap();
        assert_eq!((p.word.text(), p.word.value().map(|v| **v)), ("héllo", Ok(5)));
        let p: Compiling = read(&[]).unwrap();
        assert_eq!((p.word.text(), p.word.value().map(|v| **v)), ("four", Ok(4)));
        assert_eq!(p, Compiling::default());
        let err = read::<Compiling>(&[("word", " ")]).unwrap_err().to_string();
        assert_eq!(err, "parameter `word`: empty");
        // A value set without `resolve` is checked when it is made.
        assert_eq!(Checked::new("", length).value(), Err("empty"));
    }

    /// A number given as a number is checked as its text would be, with
    /// the text in the messages.
    #[test]
    fn numbers_given_as_numbers_are_checked_like_their_text() {
        let spec = &Compiling::SPECS[1];
        let number = |value, text| Params::check(spec, ParamInput::Number { value, text }).map(|c| c.value);
        let text = |text| Params::check(spec, ParamInput::Text(text)).map(|c| c.value);
        assert_eq!(number(3.0, "3"), Ok(ParamValue::Int(3)));
        for (value, shown) in [(3.0, "3"), (2.5, "2.5"), (12.0, "12"), (-0.0, "0"), (1e20, "100000000000000000000")] {
            assert_eq!(number(value, shown), text(shown), "{shown}");
        }
    }

    fn read<P: ParamSet>(pairs: &[(&str, &str)]) -> Result<P, ParamError> {
        Params::resolve(P::SPECS, &given(pairs)).map(|v| P::read(&v))
    }

    #[test]
    fn the_declaration_is_the_list() {
        assert_eq!(
            Simple::SPECS,
            &[
                ParamSpec {
                    key: "order",
                    name: "Order",
                    description: "",
                    kind: ParamKind::Choice { options: &["priority", "shortest"], default: "priority" },
                    unit: None,
                },
                ParamSpec {
                    key: "error",
                    name: "Error",
                    description: "",
                    kind: ParamKind::Float { min: 0.0, max: 100.0, default: 10.0 },
                    unit: Some("%"),
                },
            ]
        );
        let ParamKind::IntOr { word: "all", default: "1", .. } = More::SPECS[0].kind else { panic!("depth") };
    }

    #[test]
    fn a_number_or_a_word_and_checked_text() {
        let p: More = read(&[]).unwrap();
        assert_eq!(p, More { depth: IntOr::Int(1), order: "+a".to_string() });
        assert_eq!(p, More::default());
        let p: More = read(&[("depth", "all"), ("order", " +bc ")]).unwrap();
        assert_eq!(p, More { depth: IntOr::Word, order: "+bc".to_string() });
        let p: More = read(&[("depth", "7")]).unwrap();
        assert_eq!(p.depth, IntOr::Int(7));
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("depth", "al")], "parameter `depth`: `al` is neither a whole number nor `all`"),
            (&[("depth", "11")], "parameter `depth`: 11 is outside [0, 10]"),
            (&[("order", "abc")], "parameter `order`: `abc` does not start with `+`"),
            (&[("order", "+abcde")], "parameter `order`: 6 characters; at most 5 are accepted"),
        ];
        for (pairs, message) in cases {
            assert_eq!(read::<More>(pairs).unwrap_err().to_string(), *message);
        }
    }

    fn given(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn defaults_fill_in_and_values_are_checked() {
        let p: Simple = read(&[("error", "25")]).unwrap();
        assert_eq!(p, Simple { order: Order::Priority, error: 25.0 });
        let p: Simple = read(&[("order", "shortest")]).unwrap();
        assert_eq!(p, Simple { order: Order::Shortest, error: 10.0 });
        assert_eq!(read::<Simple>(&[]).unwrap(), Simple::default());
    }

    #[test]
    fn bad_values_are_named() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("ordr", "x")], "unknown parameter `ordr` (known: order, error)"),
            (&[("Order", "shortest")], "unknown parameter `Order` (known: order, error)"),
            (&[("order", "longest")], "parameter `order`: `longest` is not one of priority, shortest"),
            (&[("error", "ten")], "parameter `error`: `ten` is not a number"),
            (&[("error", "NaN")], "parameter `error`: `NaN` is not a number"),
            (&[("error", "101")], "parameter `error`: 101 is outside [0, 100]"),
            (&[("error", "1e300")], "parameter `error`: 1e300 is outside [0, 100]"),
            (&[("error", "-1e-300")], "parameter `error`: -1e-300 is outside [0, 100]"),
            (&[("error", "1"), ("error", "2")], "parameter `error` is given twice"),
        ];
        for (pairs, message) in cases {
            assert_eq!(read::<Simple>(pairs).unwrap_err().to_string(), *message);
        }
    }
}
