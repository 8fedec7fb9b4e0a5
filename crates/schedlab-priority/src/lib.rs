//! The priority-formula language of composable backfilling: a small,
//! checked expression language in which a user writes the order of the
//! waiting queue (`(wait / requested)^3 * procs`), and the published
//! scoring policies written in it ([`PRESETS`]).
//!
//! A formula is read once, before a run: [`Formula::compile`] lexes it,
//! parses it into a tree whose nodes know their column, checks every name
//! and every function's number of arguments, and compiles the tree into
//! postfix code over a stack of `f64`. Scoring a job then runs that code
//! with the job's [`Vars`]; nothing is parsed or looked up by name again.
//! Every error names the column it concerns, and a misspelt name gets the
//! nearest known one ("unknown variable `wiat` at column 2; did you mean
//! `wait`?").
//!
//! Arithmetic is IEEE 754 in `f64`: a division by zero gives ±∞, `log(0)`
//! gives −∞, and ±∞ order as expected. NaN (`0/0`, `log(-1)`, `∞ − ∞`)
//! propagates through every operator, comparisons and conditions included,
//! so that a formula never turns a NaN into an ordinary number unseen; the
//! policy that scores with it stops the run on a NaN score (`x^0` is 1, as
//! IEEE's `pow` has it). The functions that are not exact in IEEE
//! arithmetic (logarithms, `exp`, `^`) come from `libm`, so a score is the
//! same on every platform, native and wasm; `^` with a whole-number
//! constant exponent up to 64 (`(w / r)^3`) is computed by repeated
//! multiplication instead, also the same everywhere and much cheaper.
//!
//! The crate is pure: no I/O, no clock, no allocation while scoring beyond
//! the caller's reusable stack.

mod code;
#[cfg(feature = "counters")]
pub mod counters;
mod lex;
mod parse;
mod presets;
mod product;

pub use code::{Columns, Formula};
pub use parse::{BinOp, Expr, ExprKind};
pub use presets::{find_preset, preset_hint, preset_of, Preset, PRESETS};
pub use product::{Part, ProductForm};

use std::fmt;

/// The longest formula accepted, in characters. Share links carry the
/// formula's text, so this also bounds what a link can ask a page to parse.
pub const MAX_LENGTH: usize = 500;

/// The deepest nesting accepted: parentheses, function calls, unary
/// operators and powers (which group to the right) each add a level. It
/// bounds the parser's recursion and the evaluation stack.
pub const MAX_NESTING: usize = 32;

/// A variable of a formula: what is known of a job, and of the machine, at
/// the moment of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Var {
    Wait,
    Submit,
    Now,
    Requested,
    Predicted,
    Procs,
    User,
    Group,
    Queue,
    Partition,
    Machine,
    Free,
    Queued,
}

impl Var {
    /// Every variable, in the order the documentation lists them.
    pub const ALL: [Var; 13] = [
        Var::Wait,
        Var::Submit,
        Var::Now,
        Var::Requested,
        Var::Predicted,
        Var::Procs,
        Var::User,
        Var::Group,
        Var::Queue,
        Var::Partition,
        Var::Machine,
        Var::Free,
        Var::Queued,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Var::Wait => "wait",
            Var::Submit => "submit",
            Var::Now => "now",
            Var::Requested => "requested",
            Var::Predicted => "predicted",
            Var::Procs => "procs",
            Var::User => "user",
            Var::Group => "group",
            Var::Queue => "queue",
            Var::Partition => "partition",
            Var::Machine => "machine",
            Var::Free => "free",
            Var::Queued => "queued",
        }
    }

    /// One line for the documentation and the page's list of variables.
    pub fn description(self) -> &'static str {
        match self {
            Var::Wait => "seconds the job has waited so far (now − submit)",
            Var::Submit => "the job's submit time, seconds on the trace's clock (SWF field 2)",
            Var::Now => "the time of the scheduling pass, seconds on the trace's clock",
            Var::Requested => "the user's requested time (the estimate), seconds",
            Var::Predicted => "the runtime source's prediction for the job, seconds",
            Var::Procs => "processors the job needs",
            Var::User => "the user's number (SWF field 12; −1 when unknown)",
            Var::Group => "the group's number (SWF field 13; −1 when unknown)",
            Var::Queue => "the queue's number (SWF field 15; −1 when unknown)",
            Var::Partition => "the partition's number (SWF field 16; −1 when unknown)",
            Var::Machine => "processors of the machine",
            Var::Free => "idle processors at the start of the pass",
            Var::Queued => "waiting jobs at the start of the pass",
        }
    }

    /// Whether the variable changes while a job waits, so that a formula
    /// reading it must be scored again at every pass.
    pub fn changes_while_waiting(self) -> bool {
        matches!(self, Var::Wait | Var::Now | Var::Free | Var::Queued)
    }

    fn from_name(name: &str) -> Option<Var> {
        Var::ALL.into_iter().find(|v| v.name() == name)
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The values of every variable for one job at one decision, indexed by
/// [`Var`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vars([f64; 13]);

impl Vars {
    pub fn set(&mut self, var: Var, value: f64) -> &mut Self {
        self.0[var as usize] = value;
        self
    }

    pub fn get(&self, var: Var) -> f64 {
        self.0[var as usize]
    }
}

/// A function of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Log,
    Log2,
    Log10,
    Sqrt,
    Exp,
    Abs,
    Floor,
    Ceil,
    Min,
    Max,
    Clamp,
    If,
}

impl Func {
    pub const ALL: [Func; 12] = [
        Func::Log,
        Func::Log2,
        Func::Log10,
        Func::Sqrt,
        Func::Exp,
        Func::Abs,
        Func::Floor,
        Func::Ceil,
        Func::Min,
        Func::Max,
        Func::Clamp,
        Func::If,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Func::Log => "log",
            Func::Log2 => "log2",
            Func::Log10 => "log10",
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Abs => "abs",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Min => "min",
            Func::Max => "max",
            Func::Clamp => "clamp",
            Func::If => "if",
        }
    }

    /// How it is called, for the documentation and error messages.
    pub fn signature(self) -> &'static str {
        match self {
            Func::Log => "log(x): natural logarithm",
            Func::Log2 => "log2(x): base-2 logarithm",
            Func::Log10 => "log10(x): base-10 logarithm",
            Func::Sqrt => "sqrt(x): square root",
            Func::Exp => "exp(x): e to the power x",
            Func::Abs => "abs(x): absolute value",
            Func::Floor => "floor(x): largest whole number not above x",
            Func::Ceil => "ceil(x): smallest whole number not below x",
            Func::Min => "min(a, b, …): the least of two or more values",
            Func::Max => "max(a, b, …): the greatest of two or more values",
            Func::Clamp => "clamp(x, lo, hi): min(max(x, lo), hi)",
            Func::If => "if(c, a, b): a where c is not zero, else b",
        }
    }

    /// The least and the most arguments it takes.
    fn arity(self) -> (usize, usize) {
        match self {
            Func::Min | Func::Max => (2, usize::MAX),
            Func::Clamp | Func::If => (3, 3),
            _ => (1, 1),
        }
    }

    fn from_name(name: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Why a formula was refused: a message, the column (counted in
/// characters from 1) it concerns when it concerns one, and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormulaError {
    pub message: String,
    pub column: Option<usize>,
    pub hint: Option<String>,
}

impl FormulaError {
    fn at(column: usize, message: impl Into<String>) -> Self {
        Self { message: message.into(), column: Some(column), hint: None }
    }

    fn hint(mut self, hint: Option<String>) -> Self {
        self.hint = hint;
        self
    }
}

impl fmt::Display for FormulaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(c) = self.column {
            write!(f, " at column {c}")?;
        }
        if let Some(h) = &self.hint {
            write!(f, "; {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FormulaError {}

/// "did you mean `wait`?" for the known name nearest to `name` (at most two
/// edits away, and fewer edits than half its length), if there is one.
fn suggestion<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    nearest(name, known).map(|k| format!("did you mean `{k}`?"))
}

/// The known name nearest to `name` (at most two edits away, and fewer
/// edits than half its length), if there is one.
fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = 2.min(name.chars().count().div_ceil(2));
    known.map(|k| (edit_distance(name, k), k)).filter(|&(d, _)| d <= limit).min_by_key(|&(d, _)| d).map(|(_, k)| k)
}

/// Levenshtein distance with transpositions of neighbours counted as one
/// edit (`wiat` is one edit from `wait`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests;
