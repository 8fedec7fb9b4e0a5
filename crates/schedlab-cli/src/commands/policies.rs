//! `schedlab policies`: the policy registry and the runtime sources, as the
//! core describes them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use schedlab_engine::params::{ParamKind, ParamSpec};
use schedlab_engine::{SourceInfo, SOURCES};
use schedlab_experiment::{Preset, PRESETS};
use schedlab_policies::{PolicyInfo, REGISTRY};
use serde::Serialize;

use crate::args::PoliciesArgs;
use crate::output;

#[derive(Serialize)]
struct Registry<'a> {
    policies: &'a [&'a PolicyInfo],
    predictors: &'a [SourceInfo],
    presets: &'a [Preset],
    /// The queue-order presets of `backfill`.
    orders: Vec<Order>,
}

#[derive(Serialize)]
struct Order {
    name: &'static str,
    formula: &'static str,
    title: &'static str,
    origin: &'static str,
}

fn orders() -> Vec<Order> {
    let order =
        |p: &schedlab_priority::Preset| Order { name: p.name, formula: p.source, title: p.title, origin: p.origin };
    schedlab_priority::PRESETS.iter().map(order).collect()
}

pub fn main(args: &PoliciesArgs) -> Result<ExitCode> {
    if args.json {
        output::print_json(&Registry { policies: REGISTRY, predictors: SOURCES, presets: PRESETS, orders: orders() })?;
    } else {
        let mut out = output::stdout();
        write_text(&mut out)?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_text(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "POLICIES (--policy ID, parameters with --param KEY=VALUE)")?;
    for p in REGISTRY {
        writeln!(out)?;
        writeln!(out, "{}  {}", p.id, p.name)?;
        write_wrapped(out, p.description, "    ")?;
        if p.uses_runtime_source {
            writeln!(out, "    predictor: any (--predictor ID), default {}", p.default_source)?;
        } else {
            writeln!(out, "    predictor: none (does not use runtimes)")?;
        }
        write_params(out, p.params)?;
    }
    write_orders(out)?;
    writeln!(out)?;
    writeln!(out, "PREDICTORS (--predictor ID)")?;
    for s in SOURCES {
        writeln!(out)?;
        writeln!(out, "{}  {}", s.id, s.name)?;
        write_wrapped(out, s.description, "    ")?;
        write_params(out, s.params)?;
    }
    Ok(())
}

/// The queue orders of `backfill` (its `order` parameter): the presets,
/// the variables and the functions of the formula language.
fn write_orders(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "QUEUE ORDERS (backfill: --param order=NAME or order='FORMULA', lowest score first)")?;
    for p in schedlab_priority::PRESETS {
        writeln!(out, "    {:<9} {}", p.name, p.source)?;
        write_wrapped(out, &format!("{}; {}", p.title, p.origin), "              ")?;
    }
    writeln!(out, "  variables:")?;
    for v in schedlab_priority::Var::ALL {
        writeln!(out, "    {:<9} {}", v.name(), v.description())?;
    }
    writeln!(out, "  operators: + - * / ^ < <= > >= == != and or not; functions:")?;
    for f in schedlab_priority::Func::ALL {
        writeln!(out, "    {}", f.signature())?;
    }
    Ok(())
}

fn write_params(out: &mut dyn Write, params: &[ParamSpec]) -> std::io::Result<()> {
    for p in params {
        writeln!(out, "    --param {}=<{}>  {}", p.key, kind_text(&p.kind, p.unit), p.name)?;
        write_wrapped(out, p.description, "        ")?;
    }
    Ok(())
}

/// "choice: priority|shortest, default priority" or "float in [0, 100] %, default 10".
fn kind_text(kind: &ParamKind, unit: Option<&str>) -> String {
    let unit = unit.map(|u| format!(" {u}")).unwrap_or_default();
    match kind {
        ParamKind::Choice { options, default } => format!("{}; default {default}", options.join("|")),
        ParamKind::Int { min, max, default } => format!("integer in [{min}, {max}]{unit}; default {default}"),
        ParamKind::Float { min, max, default } => format!("number in [{min}, {max}]{unit}; default {default}"),
        ParamKind::IntOr { min, max, word, default } => {
            format!("integer in [{min}, {max}]{unit} or {word}; default {default}")
        }
        ParamKind::Text { default, max_len, .. } => format!("text of at most {max_len} characters; default {default}"),
    }
}

/// Text wrapped at about 80 columns after `indent`.
fn write_wrapped(out: &mut dyn Write, text: &str, indent: &str) -> std::io::Result<()> {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > 80 {
            writeln!(out, "{indent}{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        writeln!(out, "{indent}{line}")?;
    }
    Ok(())
}
