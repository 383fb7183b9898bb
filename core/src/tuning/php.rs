//! The PHP-FPM pool of the php workload: `pm.max_children` from the memory nginx leaves
//! and the memory of one child, and the spare children around it.

use crate::inputs::Inputs;
use crate::rules::formula::{Formula, Term};
use crate::size::ByteSize;

/// Children at most per vCPU: PHP requests mostly wait on a database or an API, and more
/// children than this would only queue for the CPU.
pub const PHP_CHILDREN_PER_VCPU: u32 = 32;

/// The pool's sizes (`pm = dynamic`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhpPool {
    /// `pm.max_children`.
    pub max_children: u32,
    /// `pm.min_spare_servers`, also `pm.start_servers`.
    pub min_spare: u32,
    /// `pm.max_spare_servers`.
    pub max_spare: u32,
    /// Requests in PHP at once the pool is planned for (at least 1): the children less the
    /// most spares, so a burst still finds idle children; PHP-FPM warns that it reached
    /// `max_children` only past the children less the fewest spares. (Measured: at the
    /// children less the fewest spares, a child still finishing its last request counts
    /// as busy, and the warning came in two of four runs.)
    pub concurrency: u32,
    /// The pool's memory: `max_children` × the child's memory.
    pub budget: u64,
    /// `pm.max_children`'s formula.
    pub max_children_formula: Formula,
    /// `pm.min_spare_servers`'s formula.
    pub min_spare_formula: Formula,
    /// `pm.max_spare_servers`'s formula.
    pub max_spare_formula: Formula,
}

impl PhpPool {
    /// The pool for `inputs`: what the system's `reserve` and nginx's share leave.
    pub fn compute(inputs: &Inputs, reserve: u64, nginx_percent: u64) -> Self {
        let child = inputs.php_child_memory;
        let left = Term::input_size(inputs.ram)
            .label("RAM")
            .minus(Term::size(ByteSize::bytes(reserve)).label("reserve"));
        let children = super::without_other_services(left, inputs)
            .times(Term::percent_of_permille((100 - nginx_percent as u32) * 10).label("for PHP"))
            .over(Term::input_size(child).label("per child"))
            .floor()
            .at_most(
                Term::num(inputs.vcpu)
                    .label("vCPU")
                    .times(Term::num(PHP_CHILDREN_PER_VCPU)),
            )
            .at_least(Term::num(1u32));
        let max_children = children.value() as u32;
        let min = Term::num(max_children)
            .label("children")
            .over(Term::num(8u32))
            .ceil();
        let min_spare = min.value() as u32;
        let max = Term::num(min_spare)
            .label("min spare")
            .times(Term::num(2u32))
            .at_most(Term::num(max_children).label("children"));
        let max_spare = max.value() as u32;
        Self {
            max_children,
            min_spare,
            max_spare,
            concurrency: (max_children - max_spare).max(1),
            budget: u64::from(max_children) * child.as_u64(),
            max_children_formula: Formula::equals(&children),
            min_spare_formula: Formula::equals(&min),
            max_spare_formula: Formula::equals(&max),
        }
    }
}
