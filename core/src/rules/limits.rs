//! Limits: open files per worker and for the service.

use super::{Ctx, Decide, Out, Rule, Text};
use crate::plan::Scope;

pub(super) static WORKER_RLIMIT_NOFILE: Rule = Rule {
    name: "worker_rlimit_nofile",
    texts: &[Text::new(
        "worker_rlimit_nofile",
        "Open files per worker: at least twice worker_connections, and enough for every connection, cached open file and upstream keepalive socket at once.",
    )
    .inputs(&["vcpu", "ram", "workload", "clients", "static_files"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let f = c.t.formulas.rlimit_nofile.clone();
        out.set_value(Scope::Main, c.t.rlimit_nofile, &WORKER_RLIMIT_NOFILE.texts[0], Some(f));
    }),
};

pub(super) static LIMIT_NOFILE: Rule = Rule {
    name: "LimitNOFILE",
    texts: &[Text::new(
        "LimitNOFILE",
        "The service's file limit, at least worker_rlimit_nofile; never below systemd's default hard limit, which a smaller value would lower.",
    )
    .inputs(&["vcpu", "ram", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let f = c.t.formulas.limit_nofile.clone();
        out.set_value(Scope::Systemd, c.t.limit_nofile, &LIMIT_NOFILE.texts[0], Some(f));
    }),
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{formula, plan, value};

    fn num(p: &crate::plan::Plan, name: &str) -> u64 {
        value(p, name).unwrap().parse().unwrap()
    }

    #[test]
    fn rlimit_covers_connections_cache_and_keepalive() {
        let p = plan(r#"{"vcpu":16,"ram":"32G","workload":"mixed","static_files":200000}"#);
        let wc = num(&p, "worker_connections");
        let rlimit = num(&p, "worker_rlimit_nofile");
        assert!(rlimit >= 2 * wc + 65_536, "{rlimit}");
        assert_eq!(rlimit % 1024, 0);
        assert!(formula(&p, "worker_rlimit_nofile").contains("65536 open_file_cache"));
    }

    #[test]
    fn rlimit_stays_under_nr_open_at_the_largest_slot_count() {
        let p = plan(r#"{"vcpu":1,"ram":"16T","clients":10000000,"static_files":1000000}"#);
        assert_eq!(num(&p, "worker_connections"), 262_144);
        let rlimit = num(&p, "worker_rlimit_nofile");
        assert!((2 * 262_144..=1_048_576).contains(&rlimit), "{rlimit}");
    }

    #[test]
    fn limit_nofile_never_lowers_systemd() {
        assert_eq!(num(&plan("{}"), "LimitNOFILE"), 524_288);
        assert_eq!(
            formula(&plan("{}"), "LimitNOFILE"),
            "max(worker_rlimit_nofile 10240, 524288) = 524288 ≥ 2 × 4096"
        );
        let big = plan(r#"{"vcpu":1,"ram":"16T","clients":10000000,"static_files":1000000}"#);
        assert_eq!(num(&big, "LimitNOFILE"), num(&big, "worker_rlimit_nofile"));
    }
}
