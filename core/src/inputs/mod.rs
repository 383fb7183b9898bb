//! What the user tells nginx-gen, in two stages, and the registry that defines each input
//! once.
//!
//! [`RawInputs`] is what arrives from a front end: CLI flags, a JSON document, the web form
//! or the wasm API. Every field is optional and loosely typed (numbers may come as text).
//! [`Inputs::from_raw`] validates it into [`Inputs`], whose fields are typed and in range,
//! filling defaults. All validation lives here, so every front end reports the same
//! message for the same mistake, naming the field.
//!
//! Both structs, and [`INPUTS`] (each input's flag, type and range, default, help and form
//! control), come from one table in `registry.rs`; the CLI's flags, the web form, the JSON
//! schema ([`json_schema`]) and docs/inputs.md ([`markdown`]) are derived from it.

/// A registry entry's value: the help and note texts only where they are read (see
/// [`help_text`]), every other value as written.
macro_rules! registry_value {
    (help, $value:expr) => {
        $crate::inputs::help_text($value)
    };
    (note, $value:expr) => {
        $crate::inputs::help_text($value)
    };
    ($key:ident, $value:expr) => {
        $value
    };
}
pub(crate) use registry_value;

/// `text` where help texts are built in (native builds, and wasm builds with the `help`
/// feature); empty in the page's build, which never shows them.
pub const fn help_text(text: &'static str) -> &'static str {
    if cfg!(any(not(target_arch = "wasm32"), feature = "help")) {
        text
    } else {
        ""
    }
}

/// Declares [`RawInputs`], [`Inputs`] and [`INPUTS`] from one entry per input:
/// `name: Type = RawType { registry fields }`, with the doc comment of the typed field.
macro_rules! inputs {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $ty:ty = $raw:ty { $($key:ident: $value:expr),* $(,)? }
    )*) => {
        /// Inputs as they arrive from a front end, before validation; also the JSON input
        /// document. Its fields are those of [`INPUTS`], in the same order.
        #[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "ts", derive(tsify::Tsify))]
        #[serde(deny_unknown_fields)]
        pub struct RawInputs {
            $(
                $(#[doc = $doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$raw>,
            )*
        }

        /// Validated inputs: every field typed, in range and defaulted.
        #[derive(Debug, Clone, PartialEq, Eq)]
        #[allow(
            clippy::struct_excessive_bools,
            reason = "independent yes/no inputs, as on the command line"
        )]
        pub struct Inputs {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        /// Every input, in the order of the JSON document.
        #[allow(clippy::needless_update, reason = "every entry starts from Input::BASE")]
        pub static INPUTS: &[$crate::inputs::Input] = &[$(
            $crate::inputs::Input {
                name: stringify!($field),
                $($key: $crate::inputs::registry_value!($key, $value),)*
                ..$crate::inputs::Input::BASE
            },
        )*];

        /// Each input's position in [`INPUTS`].
        #[allow(non_camel_case_types, reason = "named after the fields")]
        #[derive(Clone, Copy)]
        enum Id { $($field),* }

        impl RawInputs {
            /// Writes the fields that are set, in registry order (`--format json`).
            pub(crate) fn write_fields(&self, w: &mut $crate::json::write::Writer) {
                $( w.field_some(stringify!($field), self.$field.as_ref()); )*
            }
        }

        impl Inputs {
            /// The registry's defaults; a default that does not validate is recorded in `c`.
            pub(super) fn registry_defaults(
                c: &mut $crate::inputs::check::Checker,
            ) -> Option<Self> {
                use $crate::inputs::check::Value;
                Some(Self { $(
                    $field: <$ty as Value>::default_of(&INPUTS[Id::$field as usize], c)?,
                )* })
            }

            /// Reads every field: a problem goes to `c` and the field keeps its default.
            pub(super) fn read_fields(
                raw: &RawInputs,
                c: &mut $crate::inputs::check::Checker,
            ) -> Self {
                use $crate::inputs::check::Value;
                let d = $crate::inputs::defaults();
                Self { $(
                    $field: raw.$field.as_ref()
                        .and_then(|r| <$ty as Value>::check(&INPUTS[Id::$field as usize], r, c))
                        .unwrap_or_else(|| d.$field.clone()),
                )* }
            }

            /// The inputs as a complete raw document: validating it gives these inputs back.
            pub fn to_raw(&self) -> RawInputs {
                use $crate::inputs::check::Value;
                RawInputs { $( $field: self.$field.to_raw(), )* }
            }
        }

        impl RawInputs {
            /// Fields set here replace those of `base`.
            #[must_use]
            pub fn over(self, base: Self) -> Self {
                Self { $( $field: self.$field.or(base.$field), )* }
            }

            /// Every field's value in registry order ([`INPUTS`]'s), taken without copies.
            pub(crate) fn into_values(
                self,
            ) -> impl Iterator<Item = Option<$crate::inputs::RawValue>> {
                use $crate::inputs::raw::RawField;
                [$( self.$field.map(RawField::into_value), )*].into_iter()
            }

            /// The field named `name` (a JSON key), if the document sets it.
            pub fn get(&self, name: &str) -> Option<$crate::inputs::RawValue> {
                use $crate::inputs::raw::RawField;
                match name {
                    $( stringify!($field) => self.$field.clone().map(RawField::into_value), )*
                    _ => None,
                }
            }

            /// Sets (or, with `None`, clears) the field named `name`; fails for a name that
            /// is not an input and for a value of the wrong shape (text for a switch).
            pub fn set(
                &mut self,
                name: &str,
                value: Option<$crate::inputs::RawValue>,
            ) -> Result<(), $crate::inputs::WrongShape> {
                use $crate::inputs::raw::RawField;
                match name {
                    $( stringify!($field) => {
                        self.$field = value.map(RawField::from_value).transpose()?;
                    } )*
                    _ => return Err($crate::inputs::WrongShape),
                }
                Ok(())
            }
        }
    };
}

mod check;
pub mod doc;
mod ip;
mod raw;
mod registry;
mod schema;
mod spec;
pub(crate) mod texts;
mod validate;
mod values;

use check::Checker;

pub use doc::markdown;
pub use ip::Ip;
pub(crate) use raw::printable_up_to;
pub use raw::{InputError, InputErrors, RawValue, Scalar, WrongShape};
pub use registry::{INPUTS, Inputs, RawInputs};
pub use schema::json_schema;
pub use spec::{DefaultValue, Flag, Form, Group, Input, Kind, PATH_ACCEPTED, Section, Widget};
pub use texts::{Arg, Msg, TEXTS};
pub use values::{
    AccessLog, Cache, Cdn, Cidr, Hsts, Lang, Layout, Listen, PhpVersion, PolicyVersion, Release,
    Resolver, SafePath, ServerName, Target, TlsProfile, Upstream, Workload,
};

/// Accepted ranges, shared by validation, documentation and the front ends' hints.
pub mod limits {
    use crate::size::ByteSize;
    use crate::version::Version;

    /// vCPU range.
    pub const VCPU: (u32, u32) = (1, 1024);
    /// RAM range.
    pub const RAM: (ByteSize, ByteSize) = (
        ByteSize::mib(256),
        ByteSize::bytes(16 * ByteSize::TIB.as_u64()),
    );
    /// Memory of the host's other services: none up to what the largest RAM leaves after
    /// the system's reserve (1 GiB there) and 128 MiB for nginx; validation holds it to
    /// what the RAM given leaves (`tuning::least_left`).
    pub const OTHER_MEMORY: (ByteSize, ByteSize) = (
        ByteSize::bytes(0),
        ByteSize::bytes(RAM.1.as_u64() - crate::tuning::least_left(RAM.1).as_u64()),
    );
    /// `fs.file-max` range (the kernel's minimum is `NR_FILE`, 8192).
    pub const FILE_MAX: (u32, u32) = (1024, u32::MAX);
    /// Peak concurrent clients range.
    pub const CLIENTS: (u32, u32) = (1, 10_000_000);
    /// Static file count range.
    pub const STATIC_FILES: (u32, u32) = (0, 100_000_000);
    /// Typical response size range.
    pub const RESPONSE_SIZE: (ByteSize, ByteSize) = (ByteSize::KIB, ByteSize::GIB);
    /// Request body size range (`client_max_body_size`).
    pub const MAX_BODY: (ByteSize, ByteSize) =
        (ByteSize::KIB, ByteSize::bytes(64 * ByteSize::GIB.as_u64()));
    /// PHP-FPM child memory range.
    pub const PHP_CHILD: (ByteSize, ByteSize) = (ByteSize::mib(8), ByteSize::gib(4));
    /// Oldest nginx the version gates cover.
    pub const NGINX_MIN: Version = Version::new(1, 18, 0);
    /// Oldest OpenSSL with TLS 1.3.
    pub const OPENSSL_MIN: Version = Version::new(1, 1, 1);
    /// At most this many server names, upstreams or trusted proxies.
    pub const LIST_MAX: usize = 32;
}

/// The nginx version nothing else decides: `any`, the form every supported version accepts.
pub const DEFAULT_NGINX: Target = Target::Any;
/// The OpenSSL version nothing else decides: `any`, as for nginx.
pub const DEFAULT_OPENSSL: Target = Target::Any;

/// The default inputs (the guide's machine: 4 vCPU, 8 GiB, static files), read once from
/// the registry.
pub fn defaults() -> &'static Inputs {
    static DEFAULTS: std::sync::LazyLock<Inputs> = std::sync::LazyLock::new(|| {
        let mut c = Checker::default();
        match Inputs::registry_defaults(&mut c) {
            Some(inputs) if c.errors.is_empty() => inputs,
            // A bug in the table, caught by the tests before it ships.
            _ => panic!(
                "invalid default in the input registry: {}",
                InputErrors(c.errors)
            ),
        }
    });
    &DEFAULTS
}

/// Looks an input up by its JSON name.
pub fn input(name: &str) -> Option<&'static Input> {
    INPUTS.iter().find(|i| i.name == name)
}
