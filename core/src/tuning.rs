//! The numbers: every computed value, from the formulas in docs/formulas.md.
//!
//! This module only does arithmetic on [`Inputs`]; [`crate::plan`] turns the numbers into
//! directives with their reasons. Integer arithmetic throughout, so native and wasm builds
//! agree to the byte.

use crate::inputs::{Inputs, Workload};
use crate::rules::formula::{Formula, Term};
use crate::size::ByteSize;

/// Connection slots reserved per worker for listeners, the resolver and logs.
pub const SPARE_SLOTS: u32 = 32;
/// Slots per client: clients × 3/2, so that a burst does not exhaust them.
pub const HEADROOM: (u32, u32) = (3, 2);
/// Upper bound of `worker_connections` (keeps `worker_rlimit_nofile` under `fs.nr_open`).
pub const MAX_WORKER_CONNECTIONS: u32 = 262_144;
/// Kernel `fs.nr_open` default: no process may open more files.
pub const NR_OPEN: u32 = 1_048_576;
/// systemd's default hard `LimitNOFILE` since v240; the drop-in never goes below it.
pub const SYSTEMD_HARD_NOFILE: u32 = 524_288;
/// Bytes nginx preallocates per `worker_connections` slot (connection + two events).
pub const SLOT_BYTES: u64 = 430;
/// Memory of one active plain-HTTP client: request pool, buffers, kernel socket.
pub const CLIENT_BYTES: u64 = 10 * 1024;
/// Extra memory of one active TLS client (OpenSSL state and record buffers).
pub const TLS_CLIENT_BYTES: u64 = 50 * 1024;
/// Memory per cached open file (cache entry + kernel `struct file`).
pub const OPEN_FILE_BYTES: u64 = 1200;
/// Kernel default of `net.core.somaxconn` since Linux 5.4.
pub const SOMAXCONN_DEFAULT: u32 = 4096;
/// Pending TCP Fast Open requests per listener.
pub const FASTOPEN_QUEUE: u32 = 256;
/// Peak new connections per second, as a share of concurrent clients: everyone
/// reconnecting within two seconds (a reload, a failover, a link flap).
pub const RECONNECT_STORM_SECONDS: u32 = 2;
/// Listen queue: how long a burst may wait for `accept()`, in milliseconds.
pub const ACCEPT_WAIT_MS: u32 = 200;

/// Per-workload parameters of the formulas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// Concurrent clients one vCPU serves, used when `clients` is not given.
    pub clients_per_vcpu: u32,
    /// Upstream connections per client connection, in thousandths (the `p` of the
    /// formulas): 0 for files, 1000 when every request may be proxied.
    pub upstream_permille: u32,
    /// Share of connected clients with a request in flight to the upstream, in
    /// thousandths (sizes the upstream keepalive pool).
    pub in_flight_permille: u32,
    /// Share of memory (after the OS reserve) nginx may plan for, in percent.
    pub memory_percent: u64,
    /// `proxy_buffer_size`: the response header buffer.
    pub header_buffer: ByteSize,
}

impl Profile {
    /// The parameters of `workload`.
    pub const fn of(workload: Workload) -> Self {
        match workload {
            Workload::Static => Self {
                clients_per_vcpu: 2500,
                upstream_permille: 0,
                in_flight_permille: 0,
                memory_percent: 50,
                header_buffer: ByteSize::kib(8),
            },
            Workload::Mixed => Self {
                clients_per_vcpu: 1500,
                upstream_permille: 500,
                in_flight_permille: 50,
                memory_percent: 25,
                header_buffer: ByteSize::kib(16),
            },
            Workload::Proxy => Self {
                clients_per_vcpu: 1000,
                upstream_permille: 1000,
                in_flight_permille: 50,
                memory_percent: 25,
                header_buffer: ByteSize::kib(16),
            },
            Workload::Api => Self {
                clients_per_vcpu: 1000,
                upstream_permille: 1000,
                in_flight_permille: 100,
                memory_percent: 25,
                header_buffer: ByteSize::kib(16),
            },
        }
    }
}

/// `proxy_buffer_size`, `proxy_buffers` and `proxy_busy_buffers_size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyBuffers {
    /// `proxy_buffer_size`.
    pub header: ByteSize,
    /// Number of `proxy_buffers`.
    pub count: u32,
    /// Size of each of `proxy_buffers`.
    pub size: ByteSize,
    /// `proxy_busy_buffers_size`.
    pub busy: ByteSize,
}

/// The formulas of [`ProxyBuffers`]: `proxy_buffers` (size and count) and
/// `proxy_busy_buffers_size`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyFormulas {
    /// `size = …; count = …`.
    pub buffers: Formula,
    /// `clamp(2 × largest, largest, (count − 1) × size)`.
    pub busy: Formula,
}

impl ProxyBuffers {
    /// Sizes buffers so a typical response body of `response` fits in memory.
    pub fn for_response(header: ByteSize, response: ByteSize) -> Self {
        Self::with_formulas(header, response).0
    }

    /// [`ProxyBuffers::for_response`] with the formulas that computed it.
    pub fn with_formulas(header: ByteSize, response: ByteSize) -> (Self, ProxyFormulas) {
        // Few, large buffers: a typical response is read in one or two calls (measured:
        // `4 32k` beats `8 4k` for 32 KiB responses, docs/benchmarks.md). Allocated only
        // while a request is in flight.
        let size = Term::input_size(response)
            .pow2()
            .clamp(Term::size(ByteSize::kib(4)), Term::size(ByteSize::kib(32)));
        let size_bytes = ByteSize::bytes(size.value());
        let largest = ByteSize::bytes(header.as_u64().max(size_bytes.as_u64()));
        let per = |n: ByteSize| Term::input_size(n).over(Term::size(size_bytes)).ceil();
        // nginx requires busy ≤ (count − 1) × size, and busy ≥ the largest buffer.
        let count = Term::max(vec![
            per(response).plus(Term::num(1u32)),
            Term::num(4u32),
            Term::num(1u32).plus(Term::size(largest).over(Term::size(size_bytes)).ceil()),
        ])
        .at_most(Term::num(64u32));
        let n = count.value();
        let busy = Term::num(2u32).times(Term::size(largest)).clamp(
            Term::size(largest),
            Term::num(n)
                .minus(Term::num(1u32))
                .times(Term::size(size_bytes)),
        );
        let buffers = Formula::equals_size(&size)
            .named("size")
            .and(&Formula::equals(&count).named("count"));
        let formulas = ProxyFormulas {
            buffers,
            busy: Formula::equals_size(&busy),
        };
        let buffers = Self {
            header,
            count: n as u32,
            size: size_bytes,
            busy: ByteSize::bytes(busy.value()),
        };
        (buffers, formulas)
    }

    /// Worst-case memory of one proxied request.
    pub fn per_request(&self) -> u64 {
        self.header.as_u64() + u64::from(self.count) * self.size.as_u64()
    }

    /// The constraints `ngx_http_proxy_module.c` checks when it loads the configuration.
    pub fn nginx_accepts(&self) -> bool {
        let largest = self.header.as_u64().max(self.size.as_u64());
        self.count >= 2
            && self.busy.as_u64() >= largest
            && self.busy.as_u64() <= u64::from(self.count - 1) * self.size.as_u64()
    }
}

/// `open_file_cache` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFileCache {
    /// Entries per worker.
    pub max: u32,
}

/// The formulas behind the computed values, each the text of the very computation that
/// produced the number (see [`Term`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formulas {
    /// `worker_connections`.
    pub worker_connections: Formula,
    /// `worker_rlimit_nofile`.
    pub rlimit_nofile: Formula,
    /// `LimitNOFILE`.
    pub limit_nofile: Formula,
    /// `fs.file-max`, when written.
    pub file_max: Option<Formula>,
    /// `listen … backlog=`.
    pub backlog: Formula,
    /// `net.core.somaxconn`.
    pub somaxconn: Formula,
    /// `net.ipv4.tcp_max_syn_backlog`, when written.
    pub syn_backlog: Formula,
    /// Upstream `keepalive`, for workloads that proxy.
    pub upstream_keepalive: Option<Formula>,
    /// `open_file_cache max=`.
    pub open_file_cache: Option<Formula>,
    /// `ssl_session_cache` size.
    pub session_cache: Formula,
    /// Proxy buffers, for workloads that proxy.
    pub proxy: Option<ProxyFormulas>,
    /// `aio threads`.
    pub aio: Formula,
}

/// Every number the plan uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuning {
    /// The workload's parameters.
    pub profile: Profile,
    /// `worker_processes`.
    pub workers: u32,
    /// Concurrent clients aimed for before the memory check.
    pub clients_target: u32,
    /// Concurrent clients RAM allows with these settings.
    pub memory_clients: u32,
    /// Concurrent clients the configuration is sized for (the capacity).
    pub clients: u32,
    /// Estimated memory of one active client.
    pub client_bytes: u64,
    /// Memory nginx may plan for.
    pub memory_budget: u64,
    /// Upstream `keepalive` per worker, for workloads that proxy.
    pub upstream_keepalive: Option<u32>,
    /// `worker_connections`.
    pub worker_connections: u32,
    /// `open_file_cache`, for workloads that serve files.
    pub open_file_cache: Option<OpenFileCache>,
    /// `worker_rlimit_nofile`.
    pub rlimit_nofile: u32,
    /// systemd `LimitNOFILE`.
    pub limit_nofile: u32,
    /// `fs.file-max` when the kernel default is too small.
    pub file_max: Option<u64>,
    /// The kernel's own `fs.file-max` for this RAM.
    pub file_max_default: u64,
    /// `listen … backlog=`.
    pub backlog: u32,
    /// `net.core.somaxconn`.
    pub somaxconn: u32,
    /// The kernel's own `tcp_max_syn_backlog` for this RAM.
    pub syn_backlog_default: u32,
    /// `listen … fastopen=` and `tcp_fastopen = 3`, for static files served directly.
    pub fastopen: Option<u32>,
    /// `listen … reuseport`.
    pub reuseport: bool,
    /// Proxy buffers, for workloads that proxy.
    pub proxy: Option<ProxyBuffers>,
    /// `ssl_session_cache` size in MiB.
    pub session_cache_mib: u32,
    /// Files times typical size exceed half the RAM: serve them with `aio threads`.
    pub aio_threads: bool,
    /// Estimated peak memory of all workers.
    pub peak_memory: u64,
    /// How the computed values were computed.
    pub formulas: Formulas,
}

/// Kernel default of `tcp_max_syn_backlog`: max(128, ehash buckets / 128), with one
/// established-hash bucket per 128 KiB of RAM, rounded up to a power of two, at most 512Ki.
pub fn syn_backlog_default(ram: ByteSize) -> u32 {
    let buckets = (ram.as_u64() / (128 * 1024))
        .next_power_of_two()
        .min(512 * 1024);
    (buckets / 128).max(128) as u32
}

fn num(n: impl Into<u64>) -> Term {
    Term::num(n.into())
}

impl Tuning {
    /// Computes every number for `inputs`, in dependency order.
    pub fn compute(inputs: &Inputs) -> Self {
        let profile = Profile::of(inputs.workload);
        let workers = inputs.vcpu;
        let p = u64::from(profile.upstream_permille);
        let ram = inputs.ram.as_u64();

        let proxy = inputs
            .workload
            .proxies()
            .then(|| ProxyBuffers::with_formulas(profile.header_buffer, inputs.response_size));

        // Memory of one active client, including its share of connection slots.
        let tls = if inputs.tls { TLS_CLIENT_BYTES } else { 0 };
        let proxied = proxy
            .as_ref()
            .map_or(0, |(b, _)| p * (1024 + 3 * 1024 + b.per_request()) / 1000);
        let slots = SLOT_BYTES * u64::from(HEADROOM.0) * (1000 + p) / u64::from(HEADROOM.1) / 1000;
        let client_bytes = CLIENT_BYTES + tls + proxied + slots;

        let reserve = (ram / 8).clamp(ByteSize::mib(128).as_u64(), ByteSize::GIB.as_u64());
        let memory_budget = (ram - reserve) * profile.memory_percent / 100;
        let memory_clients = (memory_budget / client_bytes).clamp(1, u64::from(u32::MAX)) as u32;

        let clients_target = inputs
            .clients
            .unwrap_or_else(|| profile.clients_per_vcpu.saturating_mul(workers));
        let mut clients = clients_target.min(memory_clients);

        let headroom = Term::ratio(u64::from(HEADROOM.0), u64::from(HEADROOM.1));
        let keepalive_term = inputs.workload.proxies().then(|| {
            let mut t = Term::ratio(6, 5)
                .times(num(clients).label("clients"))
                .over(num(workers).label("workers"));
            if p != 1000 {
                t = t.times(Term::ratio(p, 1000).label("proxied"));
            }
            t.times(Term::percent_of_permille(profile.in_flight_permille).label("in flight"))
                .round_up(8)
                .at_least(num(8u32))
                .at_most(num(512u32))
        });
        let upstream_keepalive = keepalive_term.as_ref().map(|t| t.value() as u32);
        let keepalive = u64::from(upstream_keepalive.unwrap_or(0));
        let wc_term = num(clients)
            .label("clients")
            .times(headroom)
            .over(num(workers).label("workers"))
            .ceil()
            .times(num(1u32).plus(Term::ratio(p, 1000)))
            .plus(num(keepalive).label("keepalive"))
            .plus(num(SPARE_SLOTS).label("spare"))
            .round_up(1024)
            .at_most(num(MAX_WORKER_CONNECTIONS).label("max"));
        let worker_connections = wc_term.value() as u32;
        // When the slot limit binds, fewer clients fit than planned.
        let slot_clients = (u64::from(worker_connections) - keepalive - u64::from(SPARE_SLOTS))
            * u64::from(workers)
            * 1000
            / (1000 + p)
            * u64::from(HEADROOM.1)
            / u64::from(HEADROOM.0);
        clients = clients
            .min(slot_clients.min(u64::from(u32::MAX)) as u32)
            .max(1);

        let ofc_term = inputs.workload.serves_files().then(|| {
            Term::ratio(6, 5)
                .times(num(inputs.static_files).label("files"))
                .round_up(100)
                .at_least(num(1000u32))
                .at_most(num(65_536u32))
        });
        let open_file_cache = ofc_term.as_ref().map(|t| OpenFileCache {
            max: t.value() as u32,
        });
        let fds_per_connection: u64 = if inputs.workload.serves_files() { 2 } else { 1 };
        let wc = u64::from(worker_connections);
        let ofc = u64::from(open_file_cache.map_or(0, |c| c.max));
        let rlimit_term = Term::max(vec![
            num(2u32).times(num(wc)),
            num(fds_per_connection)
                .times(num(wc))
                .plus(num(ofc).label("open_file_cache"))
                .plus(num(keepalive).label("keepalive"))
                .plus(num(64u32)),
        ])
        .round_up(1024)
        .at_most(num(NR_OPEN).label("fs.nr_open"));
        let rlimit = rlimit_term.value() as u32;
        let limit_term = Term::max(vec![
            num(rlimit).named("worker_rlimit_nofile"),
            num(SYSTEMD_HARD_NOFILE),
        ]);
        let limit_nofile = limit_term.value() as u32;

        let file_max_default = ram / 1024 / 10;
        let file_max_term = num(workers)
            .label("workers")
            .times(num(rlimit))
            .plus(num(65_536u32))
            .round_up(65_536);
        let file_max = (u64::from(workers) * u64::from(rlimit) + 65_536 > file_max_default)
            .then(|| file_max_term.value());
        let kernel_file_max = num(file_max_default).named("kernel default");

        let backlog_term = num(clients)
            .label("clients")
            .over(num(RECONNECT_STORM_SECONDS).label("s"))
            .times(Term::ratio(u64::from(ACCEPT_WAIT_MS), 1000).label("s"))
            .pow2()
            .at_least(num(512u32))
            .at_most(num(65_535u32));
        let backlog = backlog_term.value() as u32;
        let somaxconn_term = Term::max(vec![
            num(backlog).named("backlog"),
            num(SOMAXCONN_DEFAULT).named("kernel default"),
        ]);
        let syn_backlog_default = syn_backlog_default(inputs.ram);

        let fastopen =
            (inputs.workload == Workload::Static && !inputs.behind_lb).then_some(FASTOPEN_QUEUE);
        let reuseport = workers >= 4 || inputs.http3 && workers > 1;
        let session_term = num(clients)
            .label("clients")
            .over(num(1000u32))
            .ceil()
            .at_least(num(1u32))
            .at_most(num(1024u32))
            .unit("MiB", 1 << 20);
        let session_cache_mib = (session_term.value() >> 20) as u32;
        let files_bytes = num(inputs.static_files)
            .label("files")
            .times(Term::input_size(inputs.response_size));
        let half_ram = Term::input_size(inputs.ram).label("RAM").over(num(2u32));
        let aio_threads = inputs.workload.serves_files()
            && u64::from(inputs.static_files).saturating_mul(inputs.response_size.as_u64())
                > ram / 2;

        let peak_memory = u64::from(workers) * wc * SLOT_BYTES
            + u64::from(clients) * client_bytes
            + u64::from(workers) * ofc * OPEN_FILE_BYTES;

        let formulas = Formulas {
            worker_connections: Formula::equals(&wc_term),
            rlimit_nofile: Formula::equals(&rlimit_term),
            limit_nofile: Formula::equals(&limit_term)
                .compare("≥", &num(2u32).times(num(worker_connections))),
            file_max: file_max
                .map(|_| Formula::equals(&file_max_term).compare(">", &kernel_file_max)),
            backlog: Formula::equals(&backlog_term).named("backlog"),
            somaxconn: Formula::equals(&somaxconn_term),
            syn_backlog: Formula::comparison(
                &num(backlog).named("backlog"),
                ">",
                &num(syn_backlog_default).named("kernel default"),
            ),
            upstream_keepalive: keepalive_term.as_ref().map(Formula::equals),
            open_file_cache: ofc_term.as_ref().map(Formula::equals),
            session_cache: Formula::equals_mib(&session_term),
            proxy: proxy.as_ref().map(|(_, f)| f.clone()),
            aio: Formula::comparison(&files_bytes, ">", &half_ram),
        };

        Self {
            profile,
            workers,
            clients_target,
            memory_clients,
            clients,
            client_bytes,
            memory_budget,
            upstream_keepalive,
            worker_connections,
            open_file_cache,
            rlimit_nofile: rlimit,
            limit_nofile,
            file_max,
            file_max_default,
            backlog,
            somaxconn: backlog.max(SOMAXCONN_DEFAULT),
            syn_backlog_default,
            fastopen,
            reuseport,
            proxy: proxy.map(|(b, _)| b),
            session_cache_mib,
            aio_threads,
            peak_memory,
            formulas,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guide_machine() {
        let t = Tuning::compute(&Inputs::default());
        assert_eq!(t.workers, 4);
        assert_eq!(t.clients, 10_000);
        assert_eq!(t.worker_connections, 4096);
        assert_eq!(t.backlog, 1024);
        assert_eq!(t.session_cache_mib, 10);
        assert!(t.rlimit_nofile >= 2 * t.worker_connections);
    }

    #[test]
    fn proxy_buffers_nginx_accepts() {
        for header in [4, 8, 16, 32] {
            for response in [1, 3, 32, 100, 1000, 100_000] {
                let b = ProxyBuffers::for_response(ByteSize::kib(header), ByteSize::kib(response));
                assert!(b.nginx_accepts(), "{b:?}");
            }
        }
    }

    #[test]
    fn syn_backlog_matches_kernel() {
        assert_eq!(syn_backlog_default(ByteSize::gib(1)), 128);
        assert_eq!(syn_backlog_default(ByteSize::gib(8)), 512);
        assert_eq!(syn_backlog_default(ByteSize::gib(64)), 4096);
    }
}
