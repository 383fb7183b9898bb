//! What the registry says about one input: its flag, type and range, default, help text,
//! group and form control. Every front end reads these instead of spelling the input out
//! again; validation reads the same [`Kind`], so a range and its message cannot disagree.

use std::fmt::Write as _;

use crate::size::ByteSize;
use crate::version::Version;

use super::{RawValue, limits};

/// One input of the JSON document, the CLI and the web form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Input {
    /// The field's name in the JSON document, the share URL and error messages.
    pub name: &'static str,
    /// Its command-line flag.
    pub flag: Flag,
    /// The heading it is listed under in `--help` and docs/inputs.md.
    pub group: Group,
    /// Its type and what is accepted.
    pub kind: Kind,
    /// What a missing value means.
    pub default: DefaultValue,
    /// The CLI fills it in from the host when it is not given (`--no-detect` turns that off).
    pub detected: bool,
    /// One line saying what it is (the CLI's help text, without range and default).
    pub help: &'static str,
    /// A rule involving other inputs, for the documentation (`only with tls`); may be empty.
    pub note: &'static str,
    /// How the web form shows it; `None` when the page sets it elsewhere (the language).
    pub form: Option<Form>,
}

impl Input {
    /// The starting point of every registry entry (`..Input::BASE`).
    pub(crate) const BASE: Self = Self {
        name: "",
        flag: Flag::value("", ""),
        group: Group::Workload,
        kind: Kind::Bool,
        default: DefaultValue::Value("false"),
        detected: false,
        help: "",
        note: "",
        form: None,
    };

    /// Whether the flag may be given several times (one value each).
    pub const fn repeatable(&self) -> bool {
        matches!(self.kind, Kind::List { .. })
    }

    /// Whether the flag is a switch without a value.
    pub const fn is_switch(&self) -> bool {
        matches!(self.kind, Kind::Bool)
    }

    /// The default as the CLI's help shows it (`4, or detected`, `127.0.0.1:8080`), or
    /// `None` for a switch.
    pub fn default_text(&self) -> Option<String> {
        if self.is_switch() {
            return None;
        }
        let text = match self.default {
            DefaultValue::Value(v) => v.to_owned(),
            DefaultValue::List(items) => items.join(", "),
            DefaultValue::Unset(what) => what.to_owned(),
        };
        Some(if self.detected {
            format!("{text}, or detected")
        } else {
            text
        })
    }

    /// A valid value other than the default, for tests and examples (alone it may still
    /// break a rule that involves other inputs, such as `ocsp_stapling` without `tls`).
    pub fn sample(&self) -> RawValue {
        match self.kind {
            Kind::Int { max, .. } => RawValue::Int(i64::from(max)),
            Kind::Size { max, .. } => RawValue::Text(max.to_string()),
            Kind::Version { min } => RawValue::Text(min.to_string()),
            Kind::Choice(names) => {
                RawValue::Text(names.last().copied().unwrap_or_default().to_owned())
            }
            Kind::Bool => RawValue::Bool(true),
            Kind::Path => RawValue::Text(format!("/srv/nginx-gen/{}", self.name)),
            Kind::Text { example, .. } => RawValue::Text(example.to_owned()),
            Kind::List { example, .. } => RawValue::List(vec![example.to_owned()]),
        }
    }

    /// The CLI's help line: what it is, the accepted range where it is short, whether the
    /// flag repeats, and the default.
    pub fn help_line(&self) -> String {
        let mut line = self.help.to_owned();
        if let Some(range) = self.kind.range() {
            let _ = write!(line, ", {range}");
        }
        if self.repeatable() {
            line.push_str(" (repeatable)");
        }
        if let Some(default) = self.default_text() {
            let _ = write!(line, " [default: {default}]");
        }
        line
    }
}

/// A command-line flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The one-letter name, if any.
    pub short: Option<char>,
    /// The placeholder of its value in `--help` (`N`, `SIZE`); empty for a switch.
    pub value_name: &'static str,
}

impl Flag {
    /// A flag that takes a value.
    pub const fn value(long: &'static str, value_name: &'static str) -> Self {
        Self {
            long,
            short: None,
            value_name,
        }
    }

    /// A switch: given means on.
    pub const fn switch(long: &'static str) -> Self {
        Self::value(long, "")
    }

    /// The same flag with a one-letter name as well.
    #[must_use]
    pub const fn with_short(self, short: char) -> Self {
        Self {
            short: Some(short),
            ..self
        }
    }
}

/// The headings of `--help` and docs/inputs.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// The machine's size.
    Machine,
    /// What the server does and for whom.
    Workload,
    /// HTTPS, HTTP versions, names and addresses.
    Tls,
    /// The installed nginx and its distribution.
    Software,
    /// What is written, and in which language.
    Output,
}

impl Group {
    /// Every group, in display order.
    pub const ALL: [Self; 5] = [
        Self::Machine,
        Self::Workload,
        Self::Tls,
        Self::Software,
        Self::Output,
    ];

    /// The heading.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Machine => "Machine",
            Self::Workload => "Workload",
            Self::Tls => "TLS and HTTP",
            Self::Software => "Software",
            Self::Output => "Input and output",
        }
    }
}

/// What an input is and which values are accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in `min..=max` (a JSON number or text).
    Int {
        /// Smallest accepted.
        min: u32,
        /// Largest accepted.
        max: u32,
    },
    /// A byte size such as `8G` in `min..=max`.
    Size {
        /// Smallest accepted.
        min: ByteSize,
        /// Largest accepted.
        max: ByteSize,
    },
    /// `any` (the portable form), or a version such as `1.30` or `1.22.1`, `min` or later.
    Version {
        /// Oldest accepted.
        min: Version,
    },
    /// One of fixed names.
    Choice(&'static [&'static str]),
    /// Yes or no.
    Bool,
    /// An absolute path made of characters that never need quoting.
    Path,
    /// One value of a checked form, such as an address.
    Text {
        /// The type's name in the documentation (`address`).
        type_name: &'static str,
        /// What is accepted, in words with examples.
        accepted: &'static str,
        /// A valid value other than the default, for tests and documentation.
        example: &'static str,
    },
    /// 1 to [`limits::LIST_MAX`] distinct entries.
    List {
        /// What an entry is, in words with examples.
        accepted: &'static str,
        /// A valid entry other than the defaults, for tests and documentation.
        example: &'static str,
    },
}

/// What every path input accepts.
pub const PATH_ACCEPTED: &str = "an absolute path of letters, digits and / . _ - + @ % , : = ~";

impl Kind {
    /// The type's name in the documentation.
    pub const fn type_name(self) -> &'static str {
        match self {
            Self::Int { .. } => "integer",
            Self::Size { .. } => "size",
            Self::Version { .. } => "version",
            Self::Choice(_) => "choice",
            Self::Bool => "bool",
            Self::Path => "path",
            Self::Text { type_name, .. } => type_name,
            Self::List { .. } => "list",
        }
    }

    /// What a valid value looks like, as error messages give it (`a whole number from 1
    /// to 1024`). Validation builds its messages from this, so it states the real range.
    pub fn accepted(self) -> String {
        self.accepted_msg().text(crate::i18n::Catalogue::english())
    }

    /// [`Self::accepted`] as a message that translations can fill.
    pub fn accepted_msg(self) -> super::Msg {
        use super::texts::{self, Msg, value};
        match self {
            Self::Int { min, max } => Msg::with(
                &texts::ACCEPTED_INT,
                vec![("min", value(min)), ("max", value(max))],
            ),
            Self::Size { min, max } => Msg::with(
                &texts::ACCEPTED_SIZE,
                vec![("min", value(min)), ("max", value(max))],
            ),
            Self::Version { min } => Msg::with(&texts::ACCEPTED_VERSION, vec![("min", value(min))]),
            Self::Choice(names) => Msg::Verbatim(names.join(", ")),
            Self::Bool => Msg::of(&texts::ACCEPTED_BOOL),
            Self::Path => Msg::english(PATH_ACCEPTED),
            Self::Text { accepted, .. } | Self::List { accepted, .. } => Msg::english(accepted),
        }
    }

    /// The English description as it was written before it became a message: the oracle
    /// of a test that the messages give the same English.
    #[cfg(test)]
    pub(crate) fn accepted_english(self) -> String {
        match self {
            Self::Int { min, max } => format!("a whole number from {min} to {max}"),
            Self::Size { min, max } => {
                format!("a size such as 8G, 512MiB or 1.5G, from {min} to {max}")
            }
            Self::Version { min } => format!(
                "any (the form every supported version accepts), or a version such as 1.30 or 1.22.1, {min} or later"
            ),
            Self::Choice(names) => names.join(", "),
            Self::Bool => "true or false".to_owned(),
            Self::Path => PATH_ACCEPTED.to_owned(),
            Self::Text { accepted, .. } | Self::List { accepted, .. } => accepted.to_owned(),
        }
    }

    /// The range in a few characters (`1–1024`, `256M–16T`), for numbers and sizes.
    pub fn range(self) -> Option<String> {
        match self {
            Self::Int { min, max } => Some(format!("{min}–{max}")),
            Self::Size { min, max } => Some(format!("{min}–{max}")),
            _ => None,
        }
    }

    /// How many entries a list takes, in words.
    pub fn list_len() -> String {
        format!("1 to {} entries", limits::LIST_MAX)
    }
}

/// What a missing value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// This value, as written in the JSON document (`4`, `8G`, `false`).
    Value(&'static str),
    /// These list entries.
    List(&'static [&'static str]),
    /// No value: the output derives one, as described (`derived from the machine`).
    Unset(&'static str),
}

/// How the web form shows an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// The fieldset.
    pub section: Section,
    /// Position in the fieldset, from 1.
    pub rank: u8,
    /// The control.
    pub widget: Widget,
}

impl Form {
    /// A form field.
    pub const fn at(section: Section, rank: u8, widget: Widget) -> Option<Self> {
        Some(Self {
            section,
            rank,
            widget,
        })
    }
}

/// The fieldsets of the web form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// vCPU, RAM, distribution and versions.
    Machine,
    /// What the server does and for whom.
    Workload,
    /// HTTPS and HTTP versions.
    Tls,
    /// Listen address, document root, load balancer.
    Advanced,
}

impl Section {
    /// Every fieldset, in display order.
    pub const ALL: [Self; 4] = [Self::Machine, Self::Workload, Self::Tls, Self::Advanced];

    /// The fieldset's id in the page (`group-machine`).
    pub const fn id(self) -> &'static str {
        match self {
            Self::Machine => "machine",
            Self::Workload => "workload",
            Self::Tls => "tls",
            Self::Advanced => "advanced",
        }
    }
}

/// A form control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Widget {
    /// A whole number, typed.
    Number,
    /// Free text (sizes, versions, paths, addresses).
    Text,
    /// Several values separated by commas or spaces.
    List,
    /// A checkbox.
    Checkbox,
    /// One of the choice's names.
    Select,
}
