//! `proxy_buffer_size`, `proxy_buffers` and `proxy_busy_buffers_size`, sized from the
//! response.

use super::MAX_PROXY_BUFFERS;
use crate::rules::formula::{Formula, Term};
use crate::size::ByteSize;

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

/// The formulas of [`ProxyBuffers`]: `proxy_buffer_size` (where its range leaves a
/// choice), `proxy_buffers` (size and count) and `proxy_busy_buffers_size`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyFormulas {
    /// `clamp(pow2(response), least, most)`, when the least and the most differ.
    pub header: Option<Formula>,
    /// `size = …; count = …`.
    pub buffers: Formula,
    /// `clamp(2 × largest, largest, (count − 1) × size)`.
    pub busy: Formula,
}

impl ProxyBuffers {
    /// Sizes buffers so a typical response body of `response` fits in memory, the first
    /// buffer within `header` (least, most): the response's headers and, where it fits, the
    /// whole typical response, which nginx then reads and sends from that one buffer
    /// (measured: a 30 KB page through the proxy, `proxy_buffer_size 32k` 4.7 % more
    /// requests per second than 16k, docs/benchmarks.md).
    pub fn for_response(header: (ByteSize, ByteSize), response: ByteSize) -> Self {
        Self::with_formulas(header, response).0
    }

    /// [`ProxyBuffers::for_response`] with the formulas that computed it.
    pub fn with_formulas(
        (least, most): (ByteSize, ByteSize),
        response: ByteSize,
    ) -> (Self, ProxyFormulas) {
        let header_formula = (least != most).then(|| {
            let t = Term::input_size(response)
                .pow2()
                .clamp(Term::size(least), Term::size(most));
            (ByteSize::bytes(t.value()), Formula::equals_size(&t))
        });
        let header = header_formula.as_ref().map_or(least, |(h, _)| *h);
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
        let count = Term::max(vec![per(response).plus(Term::num(1u32)), Term::num(4u32)])
            .at_most(Term::num(MAX_PROXY_BUFFERS).label("max"))
            .at_least(
                Term::num(1u32).plus(Term::size(largest).over(Term::size(size_bytes)).ceil()),
            );
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
            header: header_formula.map(|(_, f)| f),
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

    /// Memory of one proxied request whose response is `response` long: nginx allocates
    /// the buffers as the response arrives, so a short one takes fewer than all.
    pub fn in_use(&self, response: ByteSize) -> u64 {
        let size = self.size.as_u64();
        let needed = response
            .as_u64()
            .div_ceil(size)
            .clamp(1, u64::from(self.count));
        self.header.as_u64() + needed * size
    }

    /// The constraints `ngx_http_proxy_module.c` checks when it loads the configuration.
    pub fn nginx_accepts(&self) -> bool {
        let largest = self.header.as_u64().max(self.size.as_u64());
        self.count >= 2
            && self.busy.as_u64() >= largest
            && self.busy.as_u64() <= u64::from(self.count - 1) * self.size.as_u64()
    }
}
