//! Parameter sets declared as Rust structs. A policy or a runtime source
//! lists its parameters once, in [`param_set!`](crate::param_set); the
//! macro makes the struct its builder receives, the [`ParamSpec`] list the
//! front ends build forms, links and titles from, and the reader between
//! them. Reading a parameter the list does not declare is then a missing
//! field, which does not compile, instead of a silent default.

use std::any::Any;
use std::sync::Arc;

use super::{Compiled, ParamSpec, ParamValue, Params};

/// A struct of parameter values together with the list that describes them.
/// Implemented by [`param_set!`](crate::param_set), never by hand, so that
/// the struct's fields and the list's keys cannot drift apart.
pub trait ParamSet: Sized + Default {
    /// The parameters in the order forms list them; each key is the name
    /// of the field that holds its value.
    const SPECS: &'static [ParamSpec];

    /// The struct of the values that [`Params::resolve`] checked against
    /// [`Self::SPECS`].
    fn read(values: &Params) -> Self;
}

/// The Rust type of one kind of parameter value: `i64` for `Int`, `f64`
/// for `Float`, [`IntOr`] for `IntOr`, `String` for `Text`, [`Checked`]
/// for `Text<T>`, and the enum that [`param_choice!`](crate::param_choice)
/// declares for `Choice`.
pub trait ParamType: Sized {
    /// The value as this type, if the checked value has this kind;
    /// `compiled` is what a text parameter's check made of the text.
    fn from_value(value: &ParamValue, compiled: Option<&Compiled>) -> Option<Self>;
}

impl ParamType for i64 {
    fn from_value(value: &ParamValue, _: Option<&Compiled>) -> Option<Self> {
        match value {
            ParamValue::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl ParamType for f64 {
    fn from_value(value: &ParamValue, _: Option<&Compiled>) -> Option<Self> {
        match value {
            ParamValue::Float(x) => Some(*x),
            _ => None,
        }
    }
}

impl ParamType for String {
    fn from_value(value: &ParamValue, _: Option<&Compiled>) -> Option<Self> {
        match value {
            ParamValue::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

/// The value of an `IntOr` parameter: a whole number, or the one word the
/// parameter accepts instead (a reservation depth of `all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOr {
    Int(i64),
    Word,
}

impl IntOr {
    /// The declared default, given as text like the form shows it (`"1"`
    /// or the word).
    pub fn from_default(text: &str) -> Self {
        text.parse().map_or(Self::Word, Self::Int)
    }
}

/// The value of a text parameter whose check compiles it (`Text<T>` in
/// [`param_set!`](crate::param_set)): the text as given, which titles,
/// labels and documents show, and what the check made of it when the
/// request was read. A policy is built from the compiled value and never
/// reads the text again.
#[derive(Clone, Debug)]
pub struct Checked<T> {
    text: String,
    value: Result<Arc<T>, String>,
}

impl<T> Checked<T> {
    /// `text` checked by `check` (a declared default, or a value a test
    /// sets).
    pub fn new(text: &str, check: fn(&str) -> Result<T, String>) -> Self {
        Self { text: text.to_owned(), value: check(text).map(Arc::new) }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The compiled value, or the check's message when the text was
    /// refused (possible only for a value that did not come from
    /// [`Params::resolve`], which refuses it instead).
    pub fn value(&self) -> Result<&Arc<T>, &str> {
        self.value.as_ref().map_err(String::as_str)
    }
}

/// Equal texts compile to equal values.
impl<T> PartialEq for Checked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<T: Any + Send + Sync> ParamType for Checked<T> {
    fn from_value(value: &ParamValue, compiled: Option<&Compiled>) -> Option<Self> {
        let ParamValue::Text(text) = value else { return None };
        // `resolve` keeps what the check made of every text it accepted, so
        // the message below names a set of values not made by it.
        let value = compiled.and_then(Compiled::get::<T>).ok_or_else(|| format!("`{text}` was never checked"));
        Some(Self { text: text.clone(), value })
    }
}

impl ParamType for IntOr {
    fn from_value(value: &ParamValue, _: Option<&Compiled>) -> Option<Self> {
        match value {
            ParamValue::Int(i) => Some(Self::Int(*i)),
            // The parse accepts no text but the parameter's word.
            ParamValue::Text(_) => Some(Self::Word),
            _ => None,
        }
    }
}

/// One field of a [`ParamSet::read`]: the checked value of `key`. The
/// values come from [`Params::resolve`] over the same list, which fills in
/// every key with a value of the declared kind, so `default` (the declared
/// one) is never called; it only keeps the reader total without a panic,
/// and costs nothing (no compilation of a default) while it is not called.
#[doc(hidden)]
pub fn read_field<T: ParamType>(values: &Params, key: &str, default: impl FnOnce() -> T) -> T {
    values.values.get(key).and_then(|v| T::from_value(v, values.compiled.get(key))).unwrap_or_else(default)
}

/// Declares an enum whose variants are the options of a `Choice`
/// parameter, each with the text users type and links carry.
///
/// ```
/// schedlab_engine::param_choice! {
///     /// How jobs are tried.
///     pub enum Order {
///         Priority = "priority",
///         Shortest = "shortest",
///     }
/// }
/// assert_eq!(Order::OPTIONS, &["priority", "shortest"]);
/// assert_eq!(Order::Shortest.as_str(), "shortest");
/// ```
#[macro_export]
macro_rules! param_choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// The options in the order forms list them.
            pub const OPTIONS: &'static [&'static str] = &[$($text),+];

            /// The option's text.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $text ),+
                }
            }

            /// The variant whose text is `text`.
            pub fn from_option(text: &str) -> Option<Self> {
                match text {
                    $( $text => Some(Self::$variant), )+
                    _ => None,
                }
            }
        }

        impl $crate::params::ParamType for $name {
            fn from_value(
                value: &$crate::params::ParamValue,
                _: ::core::option::Option<&$crate::params::Compiled>,
            ) -> Option<Self> {
                match value {
                    $crate::params::ParamValue::Choice(text) => Self::from_option(text),
                    _ => None,
                }
            }
        }
    };
}

/// Declares a struct of parameters and implements [`ParamSet`] for it. Each
/// field is one parameter: its name is the key (`--param KEY=VALUE`, share
/// links), its kind gives its Rust type (`Choice<E>`: the enum `E` of
/// [`param_choice!`](crate::param_choice); `Int`: `i64`; `Float`: `f64`;
/// `IntOr`: [`IntOr`]; `Text`: `String`, checked by a `fn(&str) ->
/// Result<(), String>`; `Text<T>`: [`Checked<T>`], checked by a `fn(&str)
/// -> Result<T, String>` whose `T` is kept, so the text is compiled once,
/// when the request is read), and `name`, `description` and the optional
/// `unit` go to the form.
///
/// ```
/// schedlab_engine::param_choice! {
///     pub enum Order { Priority = "priority", Shortest = "shortest" }
/// }
/// schedlab_engine::param_set! {
///     pub struct Example {
///         order: Choice<Order> { default: Order::Priority },
///             name: "Order", description: "How jobs are tried.";
///         interval: Int { min: 1, max: 100, default: 60 },
///             name: "Interval", description: "Seconds between checks.", unit: "s";
///     }
/// }
/// use schedlab_engine::params::{ParamSet, Params};
/// let given = [("interval".to_string(), "90".to_string())];
/// let p = Example::read(&Params::resolve(Example::SPECS, &given).unwrap());
/// assert_eq!((p.order, p.interval), (Order::Priority, 90));
/// assert_eq!(Example::SPECS[1].key, "interval");
/// ```
///
/// A parameter the list does not declare is no field, so reading one is a
/// compile error rather than a silent default:
///
/// ```compile_fail,E0609
/// schedlab_engine::param_choice! {
///     pub enum Order { Priority = "priority", Shortest = "shortest" }
/// }
/// schedlab_engine::param_set! {
///     pub struct Example {
///         order: Choice<Order> { default: Order::Priority },
///             name: "Order", description: "How jobs are tried.";
///     }
/// }
/// let p = Example::default();
/// let _misspelt = p.ordr;
/// ```
#[macro_export]
macro_rules! param_set {
    (@type Choice<$choice:ty>) => { $choice };
    (@type Int) => { i64 };
    (@type Float) => { f64 };
    (@type IntOr) => { $crate::params::IntOr };
    (@type Text) => { String };
    (@type Text<$compiled:ty>) => { $crate::params::Checked<$compiled> };

    (@kind Choice<$choice:ty> { default: $default:expr $(,)? }) => {
        $crate::params::ParamKind::Choice { options: <$choice>::OPTIONS, default: $default.as_str() }
    };
    (@kind Int { min: $min:expr, max: $max:expr, default: $default:expr $(,)? }) => {
        $crate::params::ParamKind::Int { min: $min, max: $max, default: $default }
    };
    (@kind Float { min: $min:expr, max: $max:expr, default: $default:expr $(,)? }) => {
        $crate::params::ParamKind::Float { min: $min, max: $max, default: $default }
    };
    (@kind IntOr { min: $min:expr, max: $max:expr, word: $word:expr, default: $default:expr $(,)? }) => {
        $crate::params::ParamKind::IntOr { min: $min, max: $max, word: $word, default: $default }
    };
    (@kind Text { default: $default:expr, max_len: $max_len:expr, check: $check:expr $(,)? }) => {
        $crate::params::ParamKind::Text { default: $default, max_len: $max_len, check: $crate::params::TextCheck({
            fn check(text: &str) -> ::core::result::Result<::core::option::Option<$crate::params::Compiled>, String> {
                ($check)(text).map(|()| None)
            }
            check
        }) }
    };
    (@kind Text<$compiled:ty> { default: $default:expr, max_len: $max_len:expr, check: $check:expr $(,)? }) => {
        $crate::params::ParamKind::Text { default: $default, max_len: $max_len, check: $crate::params::TextCheck({
            fn compile(text: &str) -> ::core::result::Result<::core::option::Option<$crate::params::Compiled>, String> {
                ($check)(text).map(|value: $compiled| Some($crate::params::Compiled::new(value)))
            }
            compile
        }) }
    };

    (@default Choice<$choice:ty> { default: $default:expr $(,)? }) => { $default };
    (@default Int { min: $min:expr, max: $max:expr, default: $default:expr $(,)? }) => { $default };
    (@default Float { min: $min:expr, max: $max:expr, default: $default:expr $(,)? }) => { $default };
    (@default IntOr { min: $min:expr, max: $max:expr, word: $word:expr, default: $default:expr $(,)? }) => {
        $crate::params::IntOr::from_default($default)
    };
    (@default Text { default: $default:expr, max_len: $max_len:expr, check: $check:expr $(,)? }) => {
        String::from($default)
    };
    (@default Text<$compiled:ty> { default: $default:expr, max_len: $max_len:expr, check: $check:expr $(,)? }) => {
        $crate::params::Checked::<$compiled>::new($default, $check)
    };

    (@unit) => { None };
    (@unit $unit:expr) => { Some($unit) };

    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $kind:ident $(<$choice:ty>)? { $($body:tt)* },
                    name: $label:expr, description: $description:expr $(, unit: $unit:expr)? ;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $( $(#[$fmeta])* pub $field: $crate::param_set!(@type $kind $(<$choice>)?), )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $crate::param_set!(@default $kind $(<$choice>)? { $($body)* }), )* }
            }
        }

        impl $crate::params::ParamSet for $name {
            const SPECS: &'static [$crate::params::ParamSpec] = &[
                $(
                    $crate::params::ParamSpec {
                        key: stringify!($field),
                        name: $label,
                        description: $description,
                        kind: $crate::param_set!(@kind $kind $(<$choice>)? { $($body)* }),
                        unit: $crate::param_set!(@unit $($unit)?),
                    },
                )*
            ];

            fn read(values: &$crate::params::Params) -> Self {
                Self {
                    $( $field: $crate::params::read_field(
                        values,
                        stringify!($field),
                        || $crate::param_set!(@default $kind $(<$choice>)? { $($body)* }),
                    ), )*
                }
            }
        }
    };
}
