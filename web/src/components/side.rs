//! The side panel: the reason of the selected directive, what is left at the default on
//! purpose, the capacity summary and the warnings.

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::plan::{Limit, Reason};
use yew::prelude::*;

use super::Props;
use crate::i18n::T;

fn reason_body(reason: &Reason, cat: &Catalogue) -> Html {
    html! {
        <>
            <p class="why" data-testid="reason-why">{ cat.why(reason).into_owned() }</p>
            <dl class="facts">
                if let Some(f) = &reason.formula {
                    <dt>{ T::Formula.get(cat) }</dt><dd><code>{ f }</code></dd>
                }
                if !reason.inputs.is_empty() {
                    <dt>{ T::DependsOn.get(cat) }</dt><dd>{ reason.inputs.join(", ") }</dd>
                }
                if let Some(d) = reason.default {
                    <dt>{ T::StockDefault.get(cat) }</dt><dd><code>{ d }</code></dd>
                }
                <dt>{ T::Docs.get(cat) }</dt>
                <dd><a href={reason.doc} target="_blank" rel="noopener noreferrer">{ reason.doc.strip_prefix("https://").unwrap_or(reason.doc) }</a></dd>
            </dl>
        </>
    }
}

/// The reason of the selected directive.
#[function_component(ReasonPanel)]
pub fn reason_panel(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = state.cat();
    let plan = &state.output.plan;
    let selected = state.selected.and_then(|i| plan.settings.get(i));
    html! {
        <section class="card reason" aria-labelledby="reason-title">
            <h2 id="reason-title">{ T::Why.get(cat) }</h2>
            <div id="reason" data-testid="reason">
                { match selected {
                    None => html! { <p class="hint">{ T::WhyHint.get(cat) }</p> },
                    Some(s) => html! {
                        <>
                            <p class="directive"><code>{ format!("{} {}", s.name, s.value()) }</code></p>
                            { reason_body(&s.reason, cat) }
                        </>
                    },
                } }
            </div>
            <details class="omitted">
                <summary>{ format!("{} ({})", T::Omitted.get(cat), plan.omitted.len()) }</summary>
                <ul>
                    { for plan.omitted.iter().map(|o| html! {
                        <li><code>{ o.name }</code>{ " — " }{ cat.why(&o.reason).into_owned() }</li>
                    }) }
                </ul>
            </details>
        </section>
    }
}

/// A memory figure in whole MiB, or GiB with one decimal (integer arithmetic: float
/// formatting would add kilobytes to the bundle).
fn size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * MIB;
    if bytes >= GIB {
        let tenths = (bytes * 10 + GIB / 2) / GIB;
        format!("{}.{} GiB", tenths / 10, tenths % 10)
    } else if bytes >= MIB {
        format!("{} MiB", (bytes + MIB / 2) / MIB)
    } else {
        let tenths = (bytes * 10 + 512) / 1024;
        format!("{}.{} KiB", tenths / 10, tenths % 10)
    }
}

/// Capacity and warnings.
#[function_component(Summary)]
pub fn summary(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = state.cat();
    let plan = &state.output.plan;
    let c = &plan.capacity;
    let limit = match c.limited_by {
        Limit::Cpu => T::LimitCpu,
        Limit::Given => T::LimitGiven,
        Limit::Memory => T::LimitMemory,
        Limit::Slots => T::LimitSlots,
    };
    html! {
        <>
            <section class="card capacity" aria-labelledby="cap-title" data-testid="capacity">
                <h2 id="cap-title">{ T::Capacity.get(cat) }</h2>
                <dl>
                    <dt>{ T::CapClients.get(cat) }</dt><dd class="big">{ c.clients }</dd>
                    <dt>{ T::CapLimitedBy.get(cat) }</dt><dd>{ limit.get(cat) }</dd>
                    <dt>{ T::CapWorkers.get(cat) }</dt><dd>{ format!("{} × {}", plan.tuning.workers, plan.tuning.worker_connections) }</dd>
                    <dt>{ T::CapPerClient.get(cat) }</dt><dd>{ size(c.client_bytes) }</dd>
                    <dt>{ T::CapPeak.get(cat) }</dt><dd>{ size(c.peak_memory) }</dd>
                </dl>
            </section>
            <section class="card warnings" aria-labelledby="warn-title" data-testid="warnings">
                <h2 id="warn-title">{ format!("{} ({})", T::Warnings.get(cat), plan.warnings.len()) }</h2>
                if plan.warnings.is_empty() {
                    <p class="hint">{ T::NoWarnings.get(cat) }</p>
                } else {
                    <ul>
                        { for plan.warnings.iter().map(|w| html! {
                            <li data-warning={w.id}>
                                if let Some(f) = w.field { <a href={format!("#f-{f}")}><code>{ f }</code></a>{ ": " } }
                                { nginx_gen_core::render::warning_message(w, cat).into_owned() }
                            </li>
                        }) }
                    </ul>
                }
            </section>
        </>
    }
}
