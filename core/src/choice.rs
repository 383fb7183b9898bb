//! Closed sets of named choices (`static | proxy | api | mixed`, …) that read and write as
//! their names in every front end: CLI flags, JSON, the URL of the web page.

/// Declares an enum whose variants have fixed names, with `ALL`, `NAMES`, `as_str`,
/// `FromStr`, `Display` and string serde.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every choice, in documentation order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            /// The name of every choice, as accepted on input.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name of this choice.
            pub const fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text,)+ }
            }
        }

        impl std::str::FromStr for $name {
            type Err = ();
            fn from_str(s: &str) -> Result<Self, ()> {
                // Exact names, as the CLI's possible values: every front end agrees.
                match s {
                    $($text => Ok(Self::$variant),)+
                    _ => Err(()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                name.parse().map_err(|()| {
                    serde::de::Error::unknown_variant(&name, Self::NAMES)
                })
            }
        }
    };
}

pub(crate) use choice;
