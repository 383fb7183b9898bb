//! Process: the account, the workers, the pid file, the error log and modules.

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::plan::Scope;

pub(super) static USER: Rule = Rule {
    name: "user",
    texts: &[Text::new(
        "user",
        "Workers run as the unprivileged account of the distribution's package.",
    )
    .inputs(&["layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        out.set_words(Scope::Main, &[c.i.layout.user()], &USER.texts[0]);
    }),
};

pub(super) static WORKER_PROCESSES: Rule = Rule {
    name: "worker_processes",
    texts: &[Text::new(
        "worker_processes",
        "One worker per vCPU, written as a number: `auto` counts the host's CPUs and ignores container CPU limits and affinity.",
    )
    .inputs(&["vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let f = Formula::input("vcpu", c.t.workers);
        out.set_value(Scope::Main, c.t.workers, &WORKER_PROCESSES.texts[0], Some(f));
    }),
};

pub(super) static PID: Rule = Rule {
    name: "pid",
    texts: &[Text::new(
        "pid",
        "Where the distribution's service unit expects the pid file.",
    )
    .inputs(&["layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        out.set_words(Scope::Main, &[c.i.layout.pid()], &PID.texts[0]);
    }),
};

pub(super) static ERROR_LOG: Rule = Rule {
    name: "error_log",
    texts: &[Text::new(
        "error_log",
        "Log warnings too: nginx reports exhausted connections and file limits at this level.",
    )],
    decide: Decide::Fixed {
        scope: Scope::Main,
        args: &["/var/log/nginx/error.log", "warn"],
    },
};

pub(super) static INCLUDE_MODULES: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.modules",
        "Load the dynamic modules the distribution's packages enable (brotli among them).",
    )
    .inputs(&["layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(glob) = c.i.layout.modules_include() {
            out.set_words(Scope::Main, &[glob], &INCLUDE_MODULES.texts[0]);
        }
    }),
};

pub(super) static LOAD_MODULE: Rule = Rule {
    name: "load_module",
    texts: &[Text::new(
        "load_module.brotli",
        "This layout has no modules directory to include: load the brotli modules by name.",
    )
    .inputs(&["brotli", "layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.layout.modules_include().is_none() && c.i.brotli {
            for module in [
                "modules/ngx_http_brotli_filter_module.so",
                "modules/ngx_http_brotli_static_module.so",
            ] {
                out.set_words(Scope::Main, &[module], &LOAD_MODULE.texts[0]);
            }
        }
    }),
};

pub(super) static PCRE_JIT: Rule = Rule {
    name: "pcre_jit",
    texts: &[Text::new(
        "pcre_jit",
        "Compile the static-asset location's regular expression to machine code once at start; every request that is not an asset is matched against it.",
    )
    .inputs(&["workload"])],
    decide: Decide::When {
        when: |c| c.i.workload.serves_files(),
        scope: Scope::Main,
        args: &["on"],
    },
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{formula, plan, value, values};

    #[test]
    fn user_and_pid_follow_the_layout() {
        let debian = plan(r#"{"layout":"debian"}"#);
        assert_eq!(value(&debian, "user").as_deref(), Some("www-data"));
        assert_eq!(value(&debian, "pid").as_deref(), Some("/run/nginx.pid"));
        let docker = plan(r#"{"layout":"docker"}"#);
        assert_eq!(value(&docker, "user").as_deref(), Some("nginx"));
        assert_eq!(value(&docker, "pid").as_deref(), Some("/var/run/nginx.pid"));
    }

    #[test]
    fn one_worker_per_vcpu() {
        for vcpu in [1, 4, 128] {
            let p = plan(&format!(r#"{{"vcpu":{vcpu}}}"#));
            assert_eq!(value(&p, "worker_processes"), Some(vcpu.to_string()));
            assert_eq!(formula(&p, "worker_processes"), format!("vcpu = {vcpu}"));
        }
    }

    #[test]
    fn error_log_at_warn() {
        assert_eq!(
            value(&plan("{}"), "error_log").as_deref(),
            Some("/var/log/nginx/error.log warn")
        );
    }

    #[test]
    fn modules_by_directory_or_by_name() {
        let debian = plan(r#"{"layout":"debian","brotli":true}"#);
        assert_eq!(
            values(&debian, "include")[0],
            "/etc/nginx/modules-enabled/*.conf"
        );
        assert!(values(&debian, "load_module").is_empty());
        let docker = plan(r#"{"layout":"docker","brotli":true}"#);
        assert!(
            !values(&docker, "include")
                .iter()
                .any(|v| v.contains("modules"))
        );
        assert_eq!(values(&docker, "load_module").len(), 2);
        let docker_plain = plan(r#"{"layout":"docker","brotli":false}"#);
        assert!(values(&docker_plain, "load_module").is_empty());
    }

    #[test]
    fn pcre_jit_only_with_the_asset_regex() {
        assert_eq!(
            value(&plan(r#"{"workload":"static"}"#), "pcre_jit").as_deref(),
            Some("on")
        );
        assert_eq!(
            value(&plan(r#"{"workload":"mixed"}"#), "pcre_jit").as_deref(),
            Some("on")
        );
        assert_eq!(value(&plan(r#"{"workload":"proxy"}"#), "pcre_jit"), None);
    }
}
