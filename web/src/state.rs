//! The page's state and its pure reducer: plain Rust, no browser, unit-tested natively.
//!
//! The form holds text exactly as typed. After every [`Action`] the form is handed to the
//! core: valid inputs replace the [`Output`]; invalid ones are kept as `errors` (shown at
//! their fields) while the last valid output stays on screen.

use std::cell::OnceCell;
use std::rc::Rc;

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::render::{self, Format, Origin};
use nginx_gen_core::{InputErrors, Inputs, Lang, Plan, RawInputs};

use crate::fields::Field;
use crate::share::{Notice, ShareState};

/// Colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The next theme of the toggle.
    #[must_use]
    pub const fn next(self) -> Self {
        match self {
            Self::Auto => Self::Light,
            Self::Light => Self::Dark,
            Self::Dark => Self::Auto,
        }
    }
    /// The value of `data-theme` on `<html>` (`auto` leaves it to the media query).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }
    /// Reads [`Theme::as_str`] back.
    pub fn parse(s: &str) -> Self {
        match s {
            "light" => Self::Light,
            "dark" => Self::Dark,
            _ => Self::Auto,
        }
    }
}

/// An output tab: one per file, the JSON plan and the install script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// `/etc/nginx/nginx.conf`.
    #[default]
    Nginx,
    /// The site file.
    Site,
    /// The sysctl.d file.
    Sysctl,
    /// The systemd drop-in.
    Systemd,
    /// The PHP-FPM pool file (workload php only).
    Php,
    /// The whole plan as JSON.
    Json,
    /// The install script.
    Script,
}

impl Tab {
    /// Every tab, in order.
    pub const ALL: [Self; 7] = [
        Self::Nginx,
        Self::Site,
        Self::Sysctl,
        Self::Systemd,
        Self::Php,
        Self::Json,
        Self::Script,
    ];
    /// The CLI's `--format` for this tab.
    pub const fn format(self) -> Format {
        match self {
            Self::Nginx => Format::Nginx,
            Self::Site => Format::Site,
            Self::Sysctl => Format::Sysctl,
            Self::Systemd => Format::Systemd,
            Self::Php => Format::PhpPool,
            Self::Json => Format::Json,
            Self::Script => Format::Script,
        }
    }
    /// Position in [`Tab::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Self::Nginx => 0,
            Self::Site => 1,
            Self::Sysctl => 2,
            Self::Systemd => 3,
            Self::Php => 4,
            Self::Json => 5,
            Self::Script => 6,
        }
    }
    /// Stable name, used in `data-testid`s and element ids.
    pub const fn id(self) -> &'static str {
        match self {
            Self::Nginx => "nginx",
            Self::Site => "site",
            Self::Sysctl => "sysctl",
            Self::Systemd => "systemd",
            Self::Php => "php-fpm",
            Self::Json => "json",
            Self::Script => "script",
        }
    }
    /// Whether the tab is shown for `plan`: the PHP-FPM pool only for workload php.
    pub fn shown_for(self, plan: &nginx_gen_core::Plan) -> bool {
        self != Self::Php || plan.tuning.php.is_some()
    }
    /// Whether the tab shows a configuration file whose lines carry reasons.
    pub const fn is_config(self) -> bool {
        matches!(
            self,
            Self::Nginx | Self::Site | Self::Sysctl | Self::Systemd | Self::Php
        )
    }
}

/// The form: the text of every field, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form(Vec<String>);

impl Form {
    /// The form showing these inputs.
    pub fn from_inputs(inputs: &Inputs) -> Self {
        let raw = inputs.to_raw();
        Self(
            Field::all()
                .iter()
                .map(|f| f.read(&raw).unwrap_or_default())
                .collect(),
        )
    }
    /// The text of a field.
    pub fn get(&self, field: Field) -> &str {
        &self.0[field.index()]
    }
    /// Whether a flag field is on.
    pub fn flag(&self, field: Field) -> bool {
        self.get(field) == "true"
    }
    fn set(&mut self, field: Field, text: String) {
        self.0[field.index()] = text;
    }
    /// A release was chosen: its versions and layout fill the fields that follow it (still
    /// editable), `any` for both versions when none is, and its PHP version where its paths
    /// name one (else the input's default, as the CLI gives); a release whose packages have
    /// no brotli module unticks brotli.
    fn follow_release(&mut self, name: &str) {
        let row = name
            .parse::<nginx_gen_core::inputs::Release>()
            .ok()
            .and_then(nginx_gen_core::inputs::Release::row);
        let any = || "any".to_owned();
        self.set(
            Field::named("nginx_version"),
            row.map_or_else(any, |r| r.nginx.to_string()),
        );
        self.set(
            Field::named("openssl_version"),
            row.map_or_else(any, |r| r.openssl.to_string()),
        );
        // The release's PHP, else the input's default, as the CLI gives for this release.
        let php = row
            .and_then(|r| r.php)
            .unwrap_or(Inputs::default().php_version);
        self.set(Field::named("php_version"), php.to_string());
        if let Some(row) = row {
            self.set(Field::named("layout"), row.layout.to_string());
            if !row.brotli {
                self.set(Field::named("brotli"), "false".to_owned());
            }
        }
    }
    /// The raw inputs for the core.
    pub fn to_raw(&self, lang: Lang) -> RawInputs {
        let mut raw = RawInputs {
            lang: Some(lang.to_string()),
            ..RawInputs::default()
        };
        for &field in Field::all() {
            field.apply(&mut raw, self.get(field));
        }
        raw
    }
}

/// Everything shown for one valid set of inputs.
///
/// The text of a tab is rendered the first time it is asked for: a keystroke renders only
/// the tab on screen (and the files the download takes are rendered when it is clicked).
#[derive(Debug, Clone)]
pub struct Output {
    /// The plan.
    pub plan: Plan,
    /// The share query (`?v=1&…`, empty for the defaults).
    pub query: String,
    /// The CLI command giving the same files.
    pub command: String,
    /// The texts of the page's language, in which the tabs are rendered (English until
    /// that language's catalogue has been loaded).
    cat: Rc<Catalogue>,
    /// Per tab (in [`Tab::ALL`] order): its text as the CLI prints it with `--format`, and
    /// for the four files where each setting's lines are.
    shown: [OnceCell<(String, Vec<Origin>)>; 7],
}

impl Output {
    /// Computes the output for valid inputs, its texts in the catalogue's language.
    pub fn new(inputs: &Inputs, cat: &Rc<Catalogue>) -> Self {
        #[cfg_attr(not(target_arch = "wasm32"), allow(unused_mut))]
        let mut plan = Plan::new(inputs);
        // The page's clock (the core has none): the CDN ranges' age.
        #[cfg(target_arch = "wasm32")]
        #[allow(
            clippy::cast_possible_truncation,
            reason = "days since 1970 fit an i64"
        )]
        plan.check_date((js_sys::Date::now() / 86_400_000.0).floor() as i64);
        Self::rendered(plan, cat)
    }

    fn rendered(plan: Plan, cat: &Rc<Catalogue>) -> Self {
        Self {
            query: ShareState::to_query(&plan.inputs),
            command: plan.inputs.to_command(),
            plan,
            cat: Rc::clone(cat),
            shown: Default::default(),
        }
    }

    /// The same plan in another language: the plan is English and not recomputed; only
    /// the language input (URL, command) changes and the texts are rendered again.
    #[must_use]
    pub fn in_language(&self, lang: Lang, cat: &Rc<Catalogue>) -> Self {
        let mut plan = self.plan.clone();
        plan.inputs.lang = lang;
        plan.command = plan.inputs.to_command();
        Self::rendered(plan, cat)
    }

    /// The catalogue the texts are rendered with.
    pub fn cat(&self) -> &Rc<Catalogue> {
        &self.cat
    }

    /// A tab's text, rendered when it is first shown (the install script's once its
    /// functions are at hand, [`crate::install_steps`]; empty until then).
    fn shown(&self, tab: Tab) -> &(String, Vec<Origin>) {
        static NOT_YET: (String, Vec<Origin>) = (String::new(), Vec::new());
        let steps = crate::install_steps::cached();
        if tab == Tab::Script && steps.is_none() {
            return &NOT_YET;
        }
        self.shown[tab.index()].get_or_init(|| {
            let (plan, cat) = (&self.plan, &*self.cat);
            match tab.format().file() {
                Some(file) => render::file_with_origins_in(plan, file, cat),
                None => (
                    render::render_with(plan, tab.format(), cat, steps).unwrap_or_default(),
                    Vec::new(),
                ),
            }
        })
    }
    /// The text of a tab.
    pub fn text(&self, tab: Tab) -> &str {
        &self.shown(tab).0
    }
    /// Where the lines of each setting are in a tab's text (none for JSON and the script).
    pub fn origins(&self, tab: Tab) -> &[Origin] {
        &self.shown(tab).1
    }
}

/// Two outputs are equal when their inputs and the language of their texts are: everything
/// else is computed from them. (A link that names a language renders in English until that
/// language's catalogue arrives, with the same inputs: the catalogue tells them apart.)
impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        self.plan.inputs == other.plan.inputs && self.cat.lang == other.cat.lang
    }
}

impl Eq for Output {}

/// The page's whole state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The form as typed.
    pub form: Form,
    /// Language of the page and of the reasons in the files (its texts: [`State::cat`]).
    pub lang: Lang,
    /// A language whose catalogue could not be loaded (offline before its first use).
    pub lang_failed: Option<Lang>,
    /// Colour scheme.
    pub theme: Theme,
    /// The tab shown.
    pub tab: Tab,
    /// Whether the install script's functions were fetched (`None`: not asked for yet).
    pub steps: Option<Result<(), String>>,
    /// The setting whose reason is shown (index into `output.plan.settings`).
    pub selected: Option<usize>,
    /// What the core rejected in the form, if anything.
    pub errors: Option<InputErrors>,
    /// The output of the last valid inputs.
    pub output: Rc<Output>,
    /// Parameters of the opening URL that were ignored.
    pub notices: Vec<Notice>,
}

/// Everything that changes the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A field was edited.
    Set(Field, String),
    /// Another language, with its catalogue (loaded by the page before it dispatches this;
    /// English needs none).
    SetLang(Rc<Catalogue>),
    /// The catalogue of a language could not be loaded.
    LangFailed(Lang),
    /// The install script's functions were fetched (kept by [`crate::install_steps`]), or
    /// why not.
    Steps(Result<(), String>),
    /// Another colour scheme.
    SetTheme(Theme),
    /// Another tab.
    SetTab(Tab),
    /// Show the reason of a setting (or none).
    Select(Option<usize>),
    /// Back to the defaults (language and theme stay).
    Reset,
    /// Hide the notices about the opening URL.
    DismissNotices,
}

impl Default for State {
    fn default() -> Self {
        Self::from_share(ShareState::from_query(""), None)
    }
}

impl State {
    /// The state a share URL describes; `browser_lang` is used when the URL names none.
    pub fn from_share(share: ShareState, browser_lang: Option<Lang>) -> Self {
        let mut inputs = share.inputs;
        if !share.has_lang {
            inputs.lang = browser_lang.unwrap_or(inputs.lang);
        }
        // English until the page has loaded the language's catalogue.
        let cat = Rc::new(Catalogue::default());
        Self {
            form: Form::from_inputs(&inputs),
            lang: inputs.lang,
            output: Rc::new(Output::new(&inputs, &cat)),
            lang_failed: None,
            steps: None,
            theme: Theme::Auto,
            tab: Tab::Nginx,
            selected: None,
            errors: None,
            notices: share.notices,
        }
    }

    /// The texts of `lang`: the catalogue the output is rendered with (English until the
    /// language's catalogue has been loaded).
    pub fn cat(&self) -> &Catalogue {
        &self.output.cat
    }

    /// The error the core reported for a field.
    pub fn error(&self, field: Field) -> Option<&nginx_gen_core::InputError> {
        self.errors.as_ref().and_then(|e| e.for_field(field.key()))
    }

    /// The next state. Pure.
    #[must_use]
    pub fn reduce(&self, action: Action) -> Self {
        let mut next = self.clone();
        match action {
            Action::Set(field, text) => {
                if field.key() == "release" {
                    next.form.follow_release(&text);
                }
                next.form.set(field, text);
                next.revalidate();
            }
            Action::SetLang(cat) => {
                // The plan stays; its texts are rendered again in the new language (also
                // while the form is invalid: the last valid configuration stays shown).
                next.lang = cat.lang;
                next.lang_failed = None;
                next.output = Rc::new(next.output.in_language(cat.lang, &cat));
                next.errors = next.errors.map(|e| e.localized(&cat));
            }
            Action::LangFailed(lang) => next.lang_failed = Some(lang),
            Action::Steps(loaded) => next.steps = Some(loaded),
            Action::SetTheme(theme) => next.theme = theme,
            Action::SetTab(tab) => {
                next.tab = tab;
                next.selected = None;
            }
            Action::Select(index) => {
                next.selected = index.filter(|i| *i < next.output.plan.settings.len());
            }
            Action::Reset => {
                // The page's defaults: those of a visit without a link.
                let inputs = Inputs {
                    lang: self.lang,
                    ..ShareState::from_query("").inputs
                };
                next.form = Form::from_inputs(&inputs);
                next.revalidate();
            }
            Action::DismissNotices => next.notices.clear(),
        }
        next
    }

    fn revalidate(&mut self) {
        match Inputs::from_raw(&self.form.to_raw(self.lang)) {
            Ok(inputs) => {
                self.errors = None;
                if inputs != self.output.plan.inputs {
                    self.output = Rc::new(Output::new(&inputs, self.output.cat()));
                    self.selected = None;
                }
            }
            Err(errors) => self.errors = Some(errors.localized(self.cat())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli_text(json: &str, format: Format) -> String {
        render::render(&crate::testing::page_plan(json), format)
    }

    #[test]
    fn defaults_are_the_guide_machine() {
        let s = State::default();
        assert_eq!(s.form.get(Field::named("vcpu")), "4");
        assert_eq!(s.form.get(Field::named("ram")), "8G");
        assert_eq!(s.form.get(Field::named("workload")), "static");
        assert_eq!(s.output.text(Tab::Nginx), cli_text("{}", Format::Nginx));
        assert!(s.errors.is_none());
    }

    #[test]
    fn every_change_recomputes_the_output() {
        let s = State::default()
            .reduce(Action::Set(Field::named("vcpu"), "8".into()))
            .reduce(Action::Set(Field::named("workload"), "proxy".into()))
            .reduce(Action::Set(Field::named("tls"), "true".into()));
        let json = r#"{"vcpu": 8, "workload": "proxy", "tls": true}"#;
        // The install script waits for its functions (fetched by the page).
        assert_eq!(s.output.text(Tab::Script), "");
        crate::install_steps::keep(render::INSTALL_STEPS.to_owned()).unwrap();
        for tab in Tab::ALL {
            assert_eq!(s.output.text(tab), cli_text(json, tab.format()), "{tab:?}");
        }
        for param in ["?v=1&vcpu=8&", "&workload=proxy&", "&tls=1&"] {
            assert!(
                s.output.query.contains(param),
                "{param} in {}",
                s.output.query
            );
        }
        assert!(
            s.output
                .command
                .starts_with("nginx-gen --no-detect --vcpu 8 --ram 8G --workload proxy "),
            "{}",
            s.output.command
        );
        assert!(s.output.command.ends_with(" --tls"), "{}", s.output.command);
    }

    #[test]
    fn invalid_input_is_marked_and_the_last_valid_output_stays() {
        let good = State::default().reduce(Action::Set(Field::named("vcpu"), "2".into()));
        let bad = good.reduce(Action::Set(Field::named("ram"), "lots".into()));
        let err = bad.error(Field::named("ram")).expect("ram is marked");
        assert!(err.message.contains("lots"), "{}", err.message);
        assert!(bad.error(Field::named("vcpu")).is_none());
        assert!(Rc::ptr_eq(&good.output, &bad.output));
        let fixed = bad.reduce(Action::Set(Field::named("ram"), "4G".into()));
        assert!(fixed.errors.is_none());
        assert_eq!(
            fixed.output.text(Tab::Nginx),
            cli_text(r#"{"vcpu": 2, "ram": "4G"}"#, Format::Nginx)
        );
    }

    /// The catalogue the page would fetch (tests only: the bundle has none built in).
    fn catalogue(lang: Lang) -> Rc<Catalogue> {
        Rc::new(nginx_gen_core::i18n::built_in(lang))
    }

    #[test]
    fn language_changes_texts_and_errors_even_while_invalid() {
        let s = State::default()
            .reduce(Action::Set(Field::named("vcpu"), "x".into()))
            .reduce(Action::SetLang(catalogue(Lang::De)));
        let plan = crate::testing::page_plan(r#"{"lang": "de"}"#);
        assert_eq!(
            s.output.text(Tab::Nginx),
            render::render_in(&plan, Format::Nginx, &catalogue(Lang::De)),
            "the CLI's --lang de output"
        );
        assert!(s.output.query.contains("&lang=de&"), "{}", s.output.query);
        let err = s.error(Field::named("vcpu")).expect("still invalid");
        assert_eq!(err.message, "'x' ist keine ganze Zahl");
        // Back to English: the same plan, English texts.
        let en = s.reduce(Action::SetLang(Rc::new(Catalogue::default())));
        assert_eq!(en.output.text(Tab::Nginx), cli_text("{}", Format::Nginx));
        assert_eq!(en.output.plan.settings, s.output.plan.settings);
    }

    #[test]
    fn a_link_in_a_language_re_renders_when_its_catalogue_arrives() {
        // The link names German: the inputs say de before the catalogue is there.
        let s = State::from_share(ShareState::from_query("?v=1&vcpu=8&lang=de"), None);
        let before = Rc::clone(&s.output);
        let s = s.reduce(Action::SetLang(catalogue(Lang::De)));
        assert_ne!(
            *s.output, *before,
            "same inputs, other language: a new output"
        );
        assert_ne!(s.output.text(Tab::Nginx), before.text(Tab::Nginx));
    }

    #[test]
    fn a_language_that_cannot_load_is_reported_and_nothing_else_changes() {
        let s = State::default().reduce(Action::LangFailed(Lang::Ru));
        assert_eq!((s.lang, s.lang_failed), (Lang::En, Some(Lang::Ru)));
        let s = s.reduce(Action::SetLang(catalogue(Lang::Ru)));
        assert_eq!((s.lang, s.lang_failed), (Lang::Ru, None));
    }

    #[test]
    fn share_state_and_browser_language() {
        let s = State::from_share(
            ShareState::from_query("?v=1&vcpu=16&lang=es"),
            Some(Lang::Ru),
        );
        assert_eq!(s.lang, Lang::Es);
        assert_eq!(s.form.get(Field::named("vcpu")), "16");
        let s = State::from_share(ShareState::from_query("?v=1&vcpu=16"), Some(Lang::Ru));
        assert_eq!(s.lang, Lang::Ru);
        assert!(
            s.output.query.starts_with("?v=1&vcpu=16&"),
            "{}",
            s.output.query
        );
        assert!(s.output.query.contains("&lang=ru&"), "{}", s.output.query);
    }

    #[test]
    fn tabs_selection_theme_and_reset() {
        let s = State::default().reduce(Action::Select(Some(3)));
        assert_eq!(s.selected, Some(3));
        assert_eq!(s.reduce(Action::Select(Some(100_000))).selected, None);
        let s = s.reduce(Action::SetTab(Tab::Sysctl));
        assert_eq!((s.tab, s.selected), (Tab::Sysctl, None));
        assert_eq!(s.reduce(Action::SetTheme(Theme::Dark)).theme, Theme::Dark);
        assert_eq!(Theme::Auto.next().next().next(), Theme::Auto);
        let changed = s
            .reduce(Action::SetLang(catalogue(Lang::Nl)))
            .reduce(Action::Set(Field::named("vcpu"), "64".into()));
        let reset = changed.reduce(Action::Reset);
        assert_eq!(
            reset.form,
            Form::from_inputs(&Inputs {
                lang: Lang::Nl,
                ..crate::testing::page_plan("{}").inputs
            })
        );
        assert_eq!(reset.lang, Lang::Nl);
    }

    #[test]
    fn a_release_fills_the_fields_that_follow_it() {
        let release = Field::named("release");
        let s = State::default()
            .reduce(Action::Set(Field::named("brotli"), "true".into()))
            .reduce(Action::Set(release, "rhel-9".into()));
        assert_eq!(s.form.get(Field::named("nginx_version")), "1.20.1");
        assert_eq!(s.form.get(Field::named("layout")), "rhel");
        assert_eq!(s.form.get(Field::named("brotli")), "false");
        assert!(s.errors.is_none());
        assert_eq!(s.output.plan.inputs.nginx_version.to_string(), "1.20.1");
        // Still editable after the choice.
        let s = s.reduce(Action::Set(Field::named("nginx_version"), "1.26".into()));
        assert_eq!(s.output.plan.inputs.nginx_version.to_string(), "1.26.0");
        let s = s.reduce(Action::Set(release, "any".into()));
        assert_eq!(s.form.get(Field::named("nginx_version")), "any");
        assert_eq!(s.form.get(Field::named("layout")), "rhel");
        // Debian 13's PHP is 8.4: its socket is php8.4-fpm.sock; RHEL's paths name none, so
        // the version stays.
        let php = Field::named("php_version");
        let s = s.reduce(Action::Set(release, "debian-13".into()));
        assert_eq!(s.form.get(php), "8.4");
        assert_eq!(s.output.plan.inputs.php_version.as_str(), "8.4");
        // A release whose paths name none: the default, as the CLI gives (not the last
        // release's).
        let s = s.reduce(Action::Set(release, "rhel-10".into()));
        assert_eq!(s.form.get(php), "8.2");
    }

    #[test]
    fn notices_can_be_dismissed() {
        let s = State::from_share(ShareState::from_query("?v=1&nope=1"), None);
        assert_eq!(s.notices.len(), 1);
        assert!(s.reduce(Action::DismissNotices).notices.is_empty());
    }
}
