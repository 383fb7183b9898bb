//! The form's fields: every input of core's registry that has a form control
//! ([`nginx_gen_core::inputs::Input::form`]), in the order of its fieldset.
//!
//! Values travel as text (what an `<input>` holds); [`Field::apply`] puts one into a
//! [`RawInputs`] and [`Field::read`] takes it back out, so the form, the share URL and the
//! core agree on one representation. Nothing here validates: the core does.

use std::sync::LazyLock;

use nginx_gen_core::RawInputs;
use nginx_gen_core::inputs::{INPUTS, Input, Kind, RawValue};

pub use nginx_gen_core::inputs::{Section, Widget};

/// The registry's inputs that the form shows, by fieldset, then rank. (Picked in order
/// rather than sorted: a sort's code would cost the bundle kilobytes.)
static FORM: LazyLock<Vec<&'static Input>> = LazyLock::new(|| {
    let mut inputs = Vec::with_capacity(INPUTS.len());
    for section in Section::ALL {
        for rank in 1..=u8::try_from(INPUTS.len()).unwrap_or(u8::MAX) {
            inputs.extend(INPUTS.iter().filter(|i| {
                i.form
                    .is_some_and(|f| f.section == section && f.rank == rank)
            }));
        }
    }
    inputs
});

/// Every field, in display order.
static ALL: LazyLock<Vec<Field>> = LazyLock::new(|| (0..FORM.len()).map(Field).collect());

/// One field of the form: an input of the core's registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Field(usize);

/// Splits a list field: commas, spaces and line breaks separate entries.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Field {
    /// Every field, in display order.
    pub fn all() -> &'static [Self] {
        &ALL
    }

    /// The field with this JSON name, if the form shows it.
    pub fn from_key(key: &str) -> Option<Self> {
        FORM.iter().position(|i| i.name == key).map(Self)
    }

    /// The field with this JSON name; for names known to be in the form.
    ///
    /// # Panics
    /// When the form does not show `key` (a programming error, caught by the tests).
    pub fn named(key: &str) -> Self {
        Self::from_key(key).unwrap_or_else(|| panic!("the form has no field {key}"))
    }

    /// The field's position in [`Field::all`].
    pub const fn index(self) -> usize {
        self.0
    }

    /// The registry's entry.
    pub fn input(self) -> &'static Input {
        FORM[self.0]
    }

    /// The field's name in the JSON input schema, the URL and error messages.
    pub fn key(self) -> &'static str {
        self.input().name
    }

    /// How it is edited.
    pub fn widget(self) -> Widget {
        self.input().form.map_or(Widget::Text, |f| f.widget)
    }

    /// Where it is shown.
    pub fn section(self) -> Section {
        self.input().form.map_or(Section::Advanced, |f| f.section)
    }

    /// The names a select offers (empty for other controls).
    pub fn choices(self) -> &'static [&'static str] {
        match self.input().kind {
            Kind::Choice(names) => names,
            _ => &[],
        }
    }

    /// Sets this field of `raw` from text. Blank text means "not given" (the core's
    /// default); a checkbox is on for `true`/`1`/`on`. Returns `false` for a checkbox
    /// value that is none of `true 1 on false 0 off` (the field is then left unset).
    pub fn apply(self, raw: &mut RawInputs, text: &str) -> bool {
        let text = text.trim();
        let (value, known) = match self.widget() {
            Widget::Checkbox => match text {
                "true" | "1" | "on" => (Some(RawValue::Bool(true)), true),
                "false" | "0" | "off" | "" => (Some(RawValue::Bool(false)), true),
                _ => (None, false),
            },
            Widget::List => (
                (!text.is_empty()).then(|| RawValue::List(split_list(text))),
                true,
            ),
            Widget::Number | Widget::Text | Widget::Select => (
                (!text.is_empty()).then(|| RawValue::Text(text.to_owned())),
                true,
            ),
        };
        // Each control gives its field's shape (tested for every field), so this holds.
        let set = raw.set(self.key(), value).is_ok();
        known && set
    }

    /// This field of `raw` as text (`None` when not given); lists are joined with ", "
    /// and checkboxes are `true`/`false`.
    pub fn read(self, raw: &RawInputs) -> Option<String> {
        raw.get(self.key()).map(|value| match value {
            RawValue::Int(n) => n.to_string(),
            RawValue::Text(text) => text,
            RawValue::Bool(on) => on.to_string(),
            RawValue::List(items) => items.join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;

    #[test]
    fn every_field_round_trips_through_raw_inputs() {
        let raw = Inputs::default().to_raw();
        for &field in Field::all() {
            let mut copy = RawInputs::default();
            if let Some(text) = field.read(&raw) {
                assert!(field.apply(&mut copy, &text), "{field:?}");
                assert_eq!(field.read(&copy), Some(text), "{field:?}");
            }
            assert_eq!(Field::from_key(field.key()), Some(field));
        }
    }

    /// Every input's sample, typed into its control as text, reaches the core unchanged.
    #[test]
    fn every_control_gives_its_field_the_right_shape() {
        for &field in Field::all() {
            let sample = field.input().sample();
            let text = match &sample {
                RawValue::Int(n) => n.to_string(),
                RawValue::Text(t) => t.clone(),
                RawValue::Bool(on) => on.to_string(),
                RawValue::List(items) => items.join(", "),
            };
            let mut raw = RawInputs::default();
            assert!(field.apply(&mut raw, &text), "{}", field.key());
            assert_eq!(field.read(&raw), Some(text), "{}", field.key());
            let widget_fits = match field.input().kind {
                Kind::Bool => field.widget() == Widget::Checkbox,
                Kind::Choice(_) => field.widget() == Widget::Select,
                Kind::List { .. } => field.widget() == Widget::List,
                Kind::Int { .. } => field.widget() == Widget::Number,
                _ => field.widget() == Widget::Text,
            };
            assert!(widget_fits, "{}", field.key());
        }
    }

    #[test]
    fn the_form_shows_every_input_but_the_language_the_policy_and_file_max() {
        // fs.file-max is a fact the CLI reads from the host; a page cannot, and unset
        // (systemd's maximum) is what a browser user's host has.
        let shown: Vec<&str> = Field::all().iter().map(|f| f.key()).collect();
        for input in INPUTS {
            assert_eq!(
                shown.contains(&input.name),
                !matches!(input.name, "lang" | "policy" | "file_max"),
                "{}",
                input.name
            );
        }
        let mut ranks: Vec<_> = INPUTS
            .iter()
            .filter_map(|i| i.form)
            .map(|f| (f.section, f.rank))
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), shown.len(), "no two fields share a place");
    }

    #[test]
    fn lists_split_on_commas_and_spaces() {
        assert_eq!(
            split_list(" a.com, b.com  c.com,,"),
            ["a.com", "b.com", "c.com"]
        );
        let mut raw = RawInputs::default();
        Field::named("server_names").apply(&mut raw, "");
        assert_eq!(raw.server_names, None);
    }

    #[test]
    fn flags_accept_only_known_words() {
        let mut raw = RawInputs::default();
        let tls = Field::named("tls");
        assert!(tls.apply(&mut raw, "1"));
        assert_eq!(raw.tls, Some(true));
        assert!(!tls.apply(&mut raw, "yes please"));
        assert_eq!(raw.tls, None);
    }
}
